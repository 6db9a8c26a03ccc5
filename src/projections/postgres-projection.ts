import { getTableName } from 'drizzle-orm';
import type { ClientBase, PoolClient } from 'pg';
import { PostgresReadModels } from '../database';
import * as pgSchema from '../database/schema-pg';
import type { PostgresInlineProjection, StoredEvent } from '../event-store';
import { type Projection, runProjectionAsync } from './projection';

/**
 * A projection as PostgreSQL drives it: the events of one transaction at once, in global order, on
 * that transaction's connection (every statement is a round trip). The inline hook, the async runner
 * (`PgAsyncProjectionRunner`: a batch read from its checkpoint, in the transaction that moves it) and
 * the rebuild take it; `pgProjectionOf` makes one from a `Projection`.
 */
export interface PgProjection extends PostgresInlineProjection {
  /** Read-model tables it owns (SQL names): a rebuild empties them and replays from position 0. */
  readonly tables: readonly string[];
}

/** drizzle over a transaction's connection, made once per pooled connection (it is reused). */
const readModelsByClient = new WeakMap<ClientBase, PostgresReadModels>();
export function readModelsOn(client: ClientBase): PostgresReadModels {
  let readModels = readModelsByClient.get(client);
  // A transaction's connection is a pooled one (or a Client): drizzle only sends queries through it.
  if (!readModels) readModelsByClient.set(client, (readModels = new PostgresReadModels(client as PoolClient)));
  return readModels;
}

/** The SQL names of a projection's tables. */
export function pgTableNames(projection: Projection): string[] {
  return projection.tables.map((table) => getTableName(pgSchema[table]));
}

/** A projection's own handler on a transaction's connection: its statements awaited one by one. */
export function handleOn(projection: Projection, client: ClientBase, events: readonly StoredEvent[]): Promise<void> {
  return runProjectionAsync(projection.handle(events, readModelsOn(client)));
}

/** A projection on PostgreSQL: its set-based form where it has one, else its handler. */
export function pgProjectionOf(projection: Projection): PgProjection {
  const form = projection.setBased?.postgres;
  if (!form) return pgHandlerOf(projection);
  return {
    name: projection.name,
    tables: pgTableNames(projection),
    eventTypes: projection.eventTypes,
    apply: (client, events) => form.apply(client, events, (some) => handleOn(projection, client, some)),
  };
}

/** A projection on PostgreSQL through its handler alone, its set-based form left out (what that form is checked against). */
export function pgHandlerOf(projection: Projection): PgProjection {
  return {
    name: projection.name,
    tables: pgTableNames(projection),
    eventTypes: projection.eventTypes,
    apply: (client, events) => handleOn(projection, client, events),
  };
}
