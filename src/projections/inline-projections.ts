import { Injectable } from '@nestjs/common';
import type { ClientBase } from 'pg';
import type { ReadModelDatabase } from '../database';
import { type StoredEvent, applyInlineProjections, InlineProjectionHook } from '../event-store';
import { type PgProjection, pgProjectionOf, readModelsOn } from './postgres-projection';
import { type Projection, projectionHandles, runProjectionAsync, runProjectionSync } from './projection';
import { ProjectionRegistry } from './projection-registry';

/** The registry's inline projections split for PostgreSQL: handled per event, or by a set-based form. */
interface PostgresPlan {
  perEvent: readonly Projection[];
  setBased: readonly PgProjection[];
}

/**
 * The registry's inline projections as the hook the store runs in each append's transaction.
 * Event by event in global order, every projection that handles it in registration order (a batch of
 * one each: a projection may read rows another wrote for the same event); on PostgreSQL a projection
 * with a set-based form is left out of that loop and its form runs once over the events afterwards.
 */
@Injectable()
export class InlineProjections extends InlineProjectionHook {
  readonly name = 'inline';
  private plannedFor?: readonly Projection[];
  private plan: PostgresPlan = { perEvent: [], setBased: [] };

  constructor(private readonly registry: ProjectionRegistry) {
    super();
  }

  empty(): boolean {
    return this.registry.inline().length === 0;
  }

  applySync(db: ReadModelDatabase, events: readonly StoredEvent[]): void {
    const inline = this.registry.inline();
    for (const event of events) {
      // A stream append of one event (most are) is its own batch of one: no array per projection.
      const one = events.length === 1 ? events : [event];
      for (const projection of inline) {
        if (projectionHandles(projection, event)) runProjectionSync(projection.handle(one, db));
      }
    }
  }

  async apply(client: ClientBase, events: readonly StoredEvent[]): Promise<void> {
    const { perEvent, setBased } = this.postgresPlan();
    if (perEvent.length > 0) {
      const db = readModelsOn(client);
      for (const event of events) {
        const one = events.length === 1 ? events : [event];
        for (const projection of perEvent) {
          if (projectionHandles(projection, event)) await runProjectionAsync(projection.handle(one, db));
        }
      }
    }
    await applyInlineProjections(client, setBased, events);
  }

  /** Rebuilt only when the registry's list changed (registration happens at start). */
  private postgresPlan(): PostgresPlan {
    const inline = this.registry.inline();
    if (inline !== this.plannedFor) {
      this.plannedFor = inline;
      this.plan = {
        perEvent: inline.filter((projection) => !projection.setBased?.postgres),
        setBased: inline.filter((projection) => projection.setBased?.postgres).map(pgProjectionOf),
      };
    }
    return this.plan;
  }
}
