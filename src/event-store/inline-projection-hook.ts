import type { ClientBase } from 'pg';
import type { ReadModelDatabase } from '../database';
import type { StoredEvent } from './event-store.types';

/**
 * What a PostgreSQL store runs inside an append's transaction, after the rows are written and before
 * NOTIFY/COMMIT: the events of one request (global order) on that transaction's connection. Throwing,
 * or a failing statement, rolls back that request alone and its caller gets the error.
 */
export interface PostgresInlineProjection {
  readonly name: string;
  /** Event types it is given; unset means every event. */
  readonly eventTypes?: readonly string[];
  /** `events` are non-empty, of the types it handles, in global order. Write through `client` only. */
  apply(client: ClientBase, events: readonly StoredEvent[]): Promise<void>;
  /** True while it has nothing to apply (a registry without inline projections): the store leaves it out, and its round trip. */
  empty?(): boolean;
}

/**
 * The one thing the event store knows of projections: the hook it calls inside each append's
 * transaction. `src/projections` implements it over its registry (`InlineProjections`); the store
 * never sees a projection itself.
 * - SQLite: `applySync`, synchronously inside the better-sqlite3 transaction, once per stream append
 *   with its events as written; `db` is that transaction's (the one writer connection).
 * - PostgreSQL: `apply` (a `PostgresInlineProjection`), awaited on the transaction's connection.
 */
export abstract class InlineProjectionHook implements PostgresInlineProjection {
  abstract readonly name: string;
  abstract applySync(db: ReadModelDatabase, events: readonly StoredEvent[]): void;
  abstract apply(client: ClientBase, events: readonly StoredEvent[]): Promise<void>;
  abstract empty(): boolean;
}

/** The events of `events` a projection is given, in their order. */
export function eventsFor(projection: { readonly eventTypes?: readonly string[] }, events: readonly StoredEvent[]): StoredEvent[] {
  const types = projection.eventTypes;
  return types === undefined ? [...events] : events.filter((event) => types.includes(event.type));
}

/** Applies each projection to the events it is given, one after the other on `client`. */
export async function applyInlineProjections(
  client: ClientBase,
  projections: readonly PostgresInlineProjection[],
  events: readonly StoredEvent[],
): Promise<void> {
  for (const projection of projections) {
    const handled = eventsFor(projection, events);
    if (handled.length > 0) await projection.apply(client, handled);
  }
}
