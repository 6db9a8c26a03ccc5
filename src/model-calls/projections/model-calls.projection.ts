import { eq, type Placeholder, sql } from 'drizzle-orm';
import type { ReadModelDatabase } from '../../database';
import type { StoredEvent } from '../../event-store';
import { type ProjectionWork, PerEventProjection, ReadModelProjection, run, runPrepared } from '../../projections';
import { isModelCallEvent, ModelCallEvents } from '../model-call.events';
import { END_FIELDS, endedRowOf, replayColumns, startColumns, STARTED_FIELDS, STARTED_FIELDS_COMPLETE, startedRowOf } from './model-call-rows';
import { modelCallsOnPostgres } from './model-calls.pg-projection';

/** Inline: a call is listed (and counted against budgets) as soon as it is recorded. */
@ReadModelProjection()
export class ModelCallsProjection extends PerEventProjection {
  readonly name = 'model-calls';
  readonly mode = 'inline';
  readonly tables = ['modelCalls'] as const;
  readonly eventTypes = Object.values(ModelCallEvents);
  readonly setBased = { postgres: modelCallsOnPostgres };

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    if (!isModelCallEvent(event)) return;
    const { modelCalls } = db.tables;
    switch (event.type) {
      case ModelCallEvents.started:
        // Every call's first event: inserted through a statement prepared once per connection.
        yield* runPrepared(db, 'model_calls_start', insertStartedCall, startedRowOf(event));
        return;
      case ModelCallEvents.refused: {
        const d = event.data;
        yield* run(
          db.orm
            .insert(modelCalls)
            .values({
              ...startColumns(d, event),
              ...replayColumns(d.replay),
              status: 'refused',
              error: d.message,
              endedAt: event.recordedAt,
              durationMs: 0,
            })
            .onConflictDoNothing(),
        );
        return;
      }
      case ModelCallEvents.finished:
      case ModelCallEvents.failed: {
        // Every call's last event: one prepared update (see endCall).
        yield* runPrepared(db, 'model_calls_end', endCall, endedRowOf(event));
        return;
      }
      case ModelCallEvents.interrupted:
        yield* run(
          db.orm
            .update(modelCalls)
            .set({ status: 'interrupted', error: event.data.reason, endedAt: event.recordedAt })
            .where(eq(modelCalls.callId, event.data.callId)),
        );
    }
  }
}

function insertStartedCall(db: ReadModelDatabase) {
  void STARTED_FIELDS_COMPLETE;
  return db.orm.insert(db.tables.modelCalls).values(placeholders(STARTED_FIELDS)).onConflictDoNothing();
}

/** A placeholder per field, named as the field. */
function placeholders<Field extends string>(fields: readonly Field[]): Record<Field, Placeholder<Field>> {
  return Object.fromEntries(fields.map((field) => [field, sql.placeholder(field)])) as Record<Field, Placeholder<Field>>;
}

/** A call's end, with placeholders; a null `bodies` keeps the column (the request's state stands). */
function endCall(db: ReadModelDatabase) {
  const { modelCalls } = db.tables;
  const set = Object.fromEntries(END_FIELDS.map((field) => [field, sql`${sql.placeholder(field)}`]));
  return db.orm
    .update(modelCalls)
    .set({ ...set, bodies: sql`coalesce(${sql.placeholder('bodies')}, ${modelCalls.bodies})` })
    .where(eq(modelCalls.callId, sql.placeholder('callId')));
}
