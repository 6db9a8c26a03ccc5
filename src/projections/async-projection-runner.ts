import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Subscription } from 'rxjs';
import { SqliteDatabase } from '../database/sqlite-database';
import { EventStore } from '../event-store/event-store';
import type { StoredEvent } from '../event-store/event-store.types';
import { type Projection, projectionHandles } from '../event-store/projection';
import { ProjectionRegistry } from '../event-store/projection-registry';
import { readCheckpoint, writeCheckpoint } from './projection-checkpoints';

/**
 * Committed events gather this long before one transaction applies them: each transaction costs a
 * checkpoint read and write and, with synchronous=FULL, an fsync on the event loop. setImmediate made
 * it about one transaction per routed request under load (bench:dispatch).
 */
const BATCH_WINDOW_MS = 10;

/**
 * Feeds each async projection from its checkpoint: catch-up, then live. The read-model writes and
 * the new checkpoint go in one transaction, so a crash never applies an event twice or skips one.
 */
@Injectable()
export class AsyncProjectionRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AsyncProjectionRunner.name);
  private readonly subscriptions: Subscription[] = [];
  private readonly positions = new Map<string, number>();
  /** Applies a projection's gathered events now (at shutdown, while the database is still open). */
  private readonly pendingBatches = new Set<() => void>();

  constructor(
    private readonly database: SqliteDatabase,
    private readonly store: EventStore,
    private readonly registry: ProjectionRegistry,
  ) {}

  onApplicationBootstrap(): void {
    for (const projection of this.registry.async()) this.start(projection);
  }

  onModuleDestroy(): void {
    this.subscriptions.splice(0).forEach((s) => s.unsubscribe());
    [...this.pendingBatches].forEach((apply) => apply());
  }

  /** Last global position the projection has applied (for health and tests). */
  position(name: string): number {
    return this.positions.get(name) ?? readCheckpoint(this.database.orm, name);
  }

  private start(projection: Projection): void {
    const from = readCheckpoint(this.database.orm, projection.name);
    this.positions.set(projection.name, from);
    this.logger.log({ projection: projection.name, from }, 'async projection starting');
    let batch: StoredEvent[] = [];
    let timer: NodeJS.Timeout | undefined;
    const applyBatch = () => {
      clearTimeout(timer);
      timer = undefined;
      this.pendingBatches.delete(applyBatch);
      const events = batch;
      batch = [];
      try {
        const position = this.database.connection
          .transaction(() => {
            // Re-read inside the transaction: a rebuild in another process may have moved it past these events.
            const checkpoint = readCheckpoint(this.database.orm, projection.name);
            const fresh = events.filter((e) => e.globalPosition > checkpoint);
            if (fresh.length === 0) return checkpoint;
            for (const event of fresh) {
              if (projectionHandles(projection, event)) projection.apply(event, this.database.orm);
            }
            const last = fresh[fresh.length - 1].globalPosition;
            writeCheckpoint(this.database.orm, projection.name, last);
            return last;
          })
          .immediate();
        this.positions.set(projection.name, position);
      } catch (error) {
        // Stop rather than skip: the checkpoint stays before the failing event, a restart retries it.
        this.logger.error({ err: error, projection: projection.name }, 'async projection failed; stopped at its checkpoint');
        subscription.unsubscribe();
      }
    };
    const subscription = this.store.subscribe(from).subscribe({
      next: (event) => {
        batch.push(event);
        if (!timer) {
          timer = setTimeout(applyBatch, BATCH_WINDOW_MS);
          this.pendingBatches.add(applyBatch);
        }
      },
      error: (error) => this.logger.error({ err: error, projection: projection.name }, 'async projection feed failed'),
    });
    this.subscriptions.push(subscription);
  }
}
