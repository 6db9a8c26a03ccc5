import type { ClientBase } from 'pg';
import type { StoredEvent } from '../event-store.types';

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
