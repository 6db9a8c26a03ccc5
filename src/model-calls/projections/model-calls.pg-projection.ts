import { getTableColumns, getTableName } from 'drizzle-orm';
import { escapeIdentifier } from 'pg';
import { modelCalls } from '../../database/schema-pg';
import type { StoredEvent } from '../../event-store';
import type { BatchInvariant, PostgresSetBasedForm } from '../../projections';
import { isModelCallEvent, ModelCallEvents } from '../model-call.events';
import { END_FIELDS, endedRowOf, STARTED_FIELDS, startedRowOf } from './model-call-rows';

const TABLE = escapeIdentifier(getTableName(modelCalls));
const COLUMNS = getTableColumns(modelCalls);
type Field = keyof typeof COLUMNS;

const sqlName = (field: Field) => escapeIdentifier(COLUMNS[field].name);
/** A recordset's column list: each field's SQL name and type, as the table has it. */
const recordColumns = (fields: readonly Field[]) => fields.map((field) => `${sqlName(field)} ${COLUMNS[field].getSQLType()}`).join(', ');

/** A started row ended in the same batch carries its end's columns (and its `bodies` when the end sets them). */
const INSERTED_FIELDS = [...new Set<Field>([...STARTED_FIELDS, ...END_FIELDS])];
const ENDED_FIELDS: readonly Field[] = ['callId', ...END_FIELDS, 'bodies'];

/**
 * A transaction's calls in one statement: the ends update the rows that were there before it (the
 * CTE's snapshot: a row the INSERT adds is not), then the starts insert theirs, a start already
 * folded with its end. Named, so each pooled connection parses it once.
 */
const APPLY_CALLS = {
  name: 'model_calls_apply_batch',
  text: `WITH ended AS (
  UPDATE ${TABLE} AS m SET ${END_FIELDS.map((field) => `${sqlName(field)} = e.${sqlName(field)}`).join(', ')},
    bodies = coalesce(e.bodies, m.bodies)
  FROM jsonb_to_recordset($2::jsonb) AS e(${recordColumns(ENDED_FIELDS)})
  WHERE m.call_id = e.call_id
)
INSERT INTO ${TABLE} (${INSERTED_FIELDS.map(sqlName).join(', ')})
SELECT ${INSERTED_FIELDS.map((field) => `s.${sqlName(field)}`).join(', ')}
FROM jsonb_to_recordset($1::jsonb) AS s(${recordColumns(INSERTED_FIELDS)})
ON CONFLICT DO NOTHING`,
};

type Row = Record<string, unknown>;

/** One call's events in a batch, when the set-based form can fold them: at most a start and an end. */
interface FoldedCall {
  started?: Row;
  ended?: Row;
  /** The end came after the start: a row the start inserts is inserted already ended. */
  endedAfterStart: boolean;
}

const isStart = (event: StoredEvent) => event.type === ModelCallEvents.started;
const isEnd = (event: StoredEvent) => event.type === ModelCallEvents.finished || event.type === ModelCallEvents.failed;

/**
 * A value whose meaning JSON would change: node-postgres sends NaN or Infinity as text the column
 * refuses, JSON as null. Such an event's call runs through the handler, and fails there.
 */
function changesInJson(row: Row): boolean {
  return Object.values(row).some((value) => typeof value === 'number' && !Number.isFinite(value));
}

/**
 * The calls of a batch the set-based form folds (by call id, in order of first event) and the events
 * it leaves to the handler: every event of a call with a refusal, an interruption, a second start or
 * a second end, an odd value (changesInJson) or no call id.
 */
function planCalls(events: readonly StoredEvent[]): { folded: Map<string, FoldedCall>; handled: StoredEvent[] } {
  const folded = new Map<string, FoldedCall>();
  const unfoldable = new Set<unknown>();
  for (const event of events) {
    if (!isModelCallEvent(event)) continue;
    const callId: unknown = event.data.callId;
    if (unfoldable.has(callId)) continue;
    const call = typeof callId === 'string' ? (folded.get(callId) ?? { endedAfterStart: false }) : undefined;
    let row: Row | undefined;
    if (call && event.type === ModelCallEvents.started && !call.started) row = call.started = startedRowOf(event);
    else if (call && (event.type === ModelCallEvents.finished || event.type === ModelCallEvents.failed) && !call.ended) {
      row = call.ended = endedRowOf(event);
      call.endedAfterStart = call.started !== undefined;
    }
    if (!call || !row || changesInJson(row)) {
      unfoldable.add(callId);
      folded.delete(callId as string);
      continue;
    }
    folded.set(callId as string, call);
  }
  const handled = events.filter((event) => isModelCallEvent(event) && unfoldable.has(event.data.callId));
  return { folded, handled };
}

/**
 * What the set-based form relies on: each model-call event writes only its own call's row (by call
 * id) and reads no other, so calls commute: the calls the form leaves to the handler may go first,
 * and the folded calls after them, each call's events still in order.
 */
export const callsAreIndependent: BatchInvariant = {
  name: 'callsAreIndependent',
  statement: "a model-call event writes its own call's row and reads no other, so the calls of a batch commute",
  normalForm(events) {
    const { handled } = planCalls(events);
    const left = new Set(handled);
    return [...handled, ...events.filter((event) => !left.has(event) && (isStart(event) || isEnd(event)))];
  },
};

/**
 * `model_calls` on PostgreSQL: the set-based form of ModelCallsProjection. Every model call records a
 * start and an end, an INSERT and an UPDATE, a round trip each under the append lock; here a
 * transaction's calls are one statement (APPLY_CALLS), after the few calls the handler takes
 * (`callsAreIndependent`). Per call, as the handler would: an end updates a row there before the
 * transaction (a start then finds it and inserts nothing), or, after a start that inserts the row, is
 * inserted with it; an end before a start that inserts the row finds none and writes nothing.
 */
export const modelCallsOnPostgres: PostgresSetBasedForm = {
  invariant: callsAreIndependent,
  async apply(client, events, handle) {
    const { folded, handled } = planCalls(events);
    if (handled.length > 0) await handle(handled);
    if (folded.size === 0) return;
    const inserted: Row[] = [];
    const ended: Row[] = [];
    for (const call of folded.values()) {
      if (call.ended) ended.push(columnsOf(call.ended, ENDED_FIELDS));
      if (!call.started) continue;
      const end = call.endedAfterStart ? call.ended : undefined;
      // The end's columns over the start's; its null `bodies` keeps the start's (as coalesce does on UPDATE).
      const row = end ? { ...call.started, ...end, bodies: end.bodies ?? call.started.bodies } : call.started;
      inserted.push(columnsOf(row, INSERTED_FIELDS));
    }
    await client.query({ ...APPLY_CALLS, values: [JSON.stringify(inserted), JSON.stringify(ended)] });
  },
};

/** A row keyed by the columns' SQL names, as jsonb_to_recordset reads it (an absent field is null). */
function columnsOf(row: Row, fields: readonly Field[]): Row {
  return Object.fromEntries(fields.map((field) => [COLUMNS[field].name, row[field] ?? null]));
}
