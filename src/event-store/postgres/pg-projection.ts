import { applyDecorators, Injectable, SetMetadata } from '@nestjs/common';
import { getTableName } from 'drizzle-orm';
import type { ClientBase, PoolClient } from 'pg';
import { PostgresReadModels } from '../../database/postgres-read-models';
import * as pgSchema from '../../database/schema-pg';
import type { StoredEvent } from '../event-store.types';
import { type Projection, projectionHandles, runProjectionAsync } from '../projection';

/**
 * A projection on the PostgreSQL store. Asynchronous (every statement is a round trip), so it takes
 * the events of one transaction at once, in global order: one upsert per batch, not one per event.
 * The same object serves both kinds:
 * - inline (PostgresEventStore's `inlineProjections`): called inside the append's transaction after
 *   the events are written and before COMMIT; throwing (or a failing statement) rolls that append
 *   back alone, and its caller gets the error, as a failing inline projection does on SQLite;
 * - async (PgAsyncProjectionRunner): called with a batch read from its checkpoint, in the transaction
 *   that also moves the checkpoint.
 * `client` is that transaction's connection: write through it, never through another connection.
 * The app's projections (the registry's, written once for both databases) become one through
 * `pgProjectionOf` / `inlinePgProjection`.
 */
export interface PgProjection {
  readonly name: string;
  /** Read-model tables it owns (names): a rebuild empties them and replays from position 0. */
  readonly tables: readonly string[];
  /** Event types it handles; unset means every event. */
  readonly eventTypes?: readonly string[];
  /** `events` are non-empty, handled by this projection, in global order. */
  apply(client: ClientBase, events: readonly StoredEvent[]): Promise<void>;
}

/** The events of `events` this projection handles, in their order. */
export function eventsFor(projection: PgProjection, events: readonly StoredEvent[]): StoredEvent[] {
  const types = projection.eventTypes;
  return types === undefined ? [...events] : events.filter((event) => types.includes(event.type));
}

/** Applies each projection to the events it handles, one after the other on `client`. */
export async function applyProjections(client: ClientBase, projections: readonly PgProjection[], events: readonly StoredEvent[]): Promise<void> {
  for (const projection of projections) {
    const handled = eventsFor(projection, events);
    if (handled.length > 0) await projection.apply(client, handled);
  }
}

export const POSTGRES_BATCH_FORM = 'switchboard:postgres-batch-form';

/**
 * Marks a provider as the PostgreSQL batch form of the registry projection of the same name: on
 * PostgreSQL it runs instead, once per transaction's events rather than statement by statement per
 * event. It must write the same rows (a test folds both over one log); the ProjectionRegistry finds it.
 */
export function PostgresBatchForm(): ClassDecorator {
  return applyDecorators(Injectable(), SetMetadata(POSTGRES_BATCH_FORM, true));
}

/** drizzle over a transaction's connection, made once per pooled connection (it is reused). */
const readModelsByClient = new WeakMap<ClientBase, PostgresReadModels>();
export function readModelsOn(client: ClientBase): PostgresReadModels {
  let readModels = readModelsByClient.get(client);
  // A transaction's connection is a pooled one (or a Client): drizzle only sends queries through it.
  if (!readModels) readModelsByClient.set(client, (readModels = new PostgresReadModels(client as PoolClient)));
  return readModels;
}

/** The SQL names of a registry projection's tables. */
export function pgTableNames(projection: Projection): string[] {
  return projection.tables.map((table) => getTableName(pgSchema[table]));
}

/** A registry projection as a PgProjection: its statements on the transaction's connection, event by event. */
export function pgProjectionOf(projection: Projection): PgProjection {
  return {
    name: projection.name,
    tables: pgTableNames(projection),
    eventTypes: projection.eventTypes,
    async apply(client, events) {
      const db = readModelsOn(client);
      for (const event of events) await runProjectionAsync(projection.apply(event, db));
    },
  };
}

/**
 * The registry's inline projections as the one hook the store runs in each append's transaction.
 * Event by event in global order, every projection that handles it in registration order, as the
 * SQLite store applies them (a projection may read another's rows); a projection with a batch form
 * is left out of that loop and its batch form runs once over the transaction's events afterwards.
 */
export function inlinePgProjection(projections: readonly Projection[], batchFormOf: (name: string) => PgProjection | undefined): PgProjection {
  const batchForms = projections.flatMap((projection) => batchFormOf(projection.name) ?? []);
  const perEvent = projections.filter((projection) => !batchFormOf(projection.name));
  return {
    name: 'inline',
    tables: projections.flatMap(pgTableNames),
    async apply(client, events) {
      const db = readModelsOn(client);
      for (const event of events) {
        for (const projection of perEvent) {
          if (projectionHandles(projection, event)) await runProjectionAsync(projection.apply(event, db));
        }
      }
      await applyProjections(client, batchForms, events);
    },
  };
}
