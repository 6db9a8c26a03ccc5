import { getTableColumns, getTableName } from 'drizzle-orm';
import { escapeIdentifier } from 'pg';
import { runs } from '../../database/schema-pg';
import type { StoredEvent } from '../../event-store';
import type { BatchInvariant, PostgresSetBasedForm } from '../../projections';
import { SessionEvents } from '../../sessions';
import { isRunEvent, RunEvents, type RunStartedData } from '../run.events';
import { launchMs, STARTED_RUN_FIELDS, STARTED_RUN_FIELDS_COMPLETE, type StartedRunRow, startedRunRowOfEvent } from './run-rows';
import { recordOf, type RunUsage, runUsageOf } from './run-usage';

const TABLE = escapeIdentifier(getTableName(runs));
const COLUMNS = getTableColumns(runs);
type Field = keyof typeof COLUMNS;
const sqlName = (field: Field) => escapeIdentifier(COLUMNS[field].name);
/** A recordset's column list: each field's SQL name and type, as the table has it. */
const recordColumns = (fields: readonly Field[]) => fields.map((field) => `${sqlName(field)} ${COLUMNS[field].getSQLType()}`).join(', ');

/** The counters of one batch, one row per run: the sums of its usage and tool-start events. */
const ADD_USAGE = `UPDATE ${TABLE} AS r SET input_tokens = r.input_tokens + t.input_tokens,
  output_tokens = r.output_tokens + t.output_tokens, tool_calls = r.tool_calls + t.tool_calls
FROM jsonb_to_recordset($1::jsonb) AS t(run_id text, input_tokens bigint, output_tokens bigint, tool_calls bigint)
WHERE r.run_id = t.run_id`;

/** A run started in the batch is inserted with its end when its completion follows in the batch. */
void STARTED_RUN_FIELDS_COMPLETE;
const INSERTED_FIELDS: readonly Field[] = [...STARTED_RUN_FIELDS, 'output', 'endedAt', 'durationMs'];

/**
 * A transaction's new and completed runs in one statement. The completions update rows there before
 * the statement (the CTE's snapshot: a row the INSERT adds is not), adding the launch's length as
 * RunsProjection's `ended` does from the same two ISO timestamps (millisecond ones: the difference is
 * exact in both); the starts insert theirs, a start already folded with its completion. Named, so
 * each pooled connection parses it once.
 */
const APPLY_RUNS = {
  name: 'runs_apply_batch',
  text: `WITH ended AS (
  UPDATE ${TABLE} AS r SET status = e.status, output = e.output, ended_at = e.ended_at, updated_at = e.ended_at,
    duration_ms = r.duration_ms
      + greatest(0, round(extract(epoch FROM (e.ended_at::timestamptz - r.launched_at::timestamptz)) * 1000))::bigint
  FROM jsonb_to_recordset($2::jsonb) AS e(run_id text, status text, output text, ended_at text)
  WHERE r.run_id = e.run_id
)
INSERT INTO ${TABLE} (${INSERTED_FIELDS.map(sqlName).join(', ')})
SELECT ${INSERTED_FIELDS.map((field) => `s.${sqlName(field)}`).join(', ')}
FROM jsonb_to_recordset($1::jsonb) AS s(${recordColumns(INSERTED_FIELDS)})`,
};

/**
 * A usage or tool-start event the set-based form sums: one on a run's session with whole-number usage.
 * Any other usage runs per event: its UPDATE fails there as it does in RunsProjection, where a sum could hide it.
 */
function summedUsageOf(event: StoredEvent): RunUsage | undefined {
  const usage = runUsageOf(event);
  return usage && Number.isSafeInteger(usage.inputTokens) && Number.isSafeInteger(usage.outputTokens) ? usage : undefined;
}

/** One run's start and completion in a batch, when the set-based form folds them. */
interface FoldedRun {
  started?: StartedRunRow;
  completed?: { output: string; at: string };
}

/** A started row whose values mean in JSON what they mean as parameters: text, whole numbers, a boolean, nulls. */
function plainStartedRow(row: StartedRunRow): boolean {
  return Object.entries(row).every(([field, value]) => {
    if (value === null) return !COLUMNS[field as Field].notNull;
    if (field === 'background') return typeof value === 'boolean';
    if (field === 'depth' || field === 'epoch') return Number.isSafeInteger(value) && Math.abs(value as number) < 2 ** 31;
    return typeof value === 'string';
  });
}

/**
 * The run rows an event outside the run streams has the handler write: those a session reminder names
 * (the owner told of their end, or of their budget warnings; whatever its kind), and the run of a usage
 * the form does not sum (summedUsageOf).
 */
function runsWrittenBeside(event: StoredEvent): string[] {
  const usage = runUsageOf(event);
  if (usage) return summedUsageOf(event) ? [] : [usage.runId];
  if (event.type !== SessionEvents.reminded) return [];
  const ids = Array.isArray(event.data.runIds) ? event.data.runIds.filter((id): id is string => typeof id === 'string') : [];
  return [...ids, ...Object.keys(recordOf(event.data.told))];
}

/**
 * The runs of a batch the set-based form folds, by run id: a run whose run-stream events in the batch
 * are a start, a completion, or a start then its completion, with plain values; a run started here
 * must not be written beside (runsWrittenBeside) in the batch: such an event before the start finds no
 * row, one after it writes it. Every other run-stream event is left to the handler, with all of its run's.
 */
function planRuns(events: readonly StoredEvent[]): Map<string, FoldedRun> {
  const byRun = new Map<unknown, StoredEvent[]>();
  const writtenBeside = new Set<string>();
  for (const event of events) {
    for (const runId of runsWrittenBeside(event)) writtenBeside.add(runId);
    if (!isRunEvent(event)) continue;
    const runId: unknown = event.data.runId;
    byRun.set(runId, [...(byRun.get(runId) ?? []), event]);
  }
  const folded = new Map<string, FoldedRun>();
  for (const [runId, runEvents] of byRun) {
    if (typeof runId !== 'string') continue;
    const types = runEvents.map((event) => event.type).join(' ');
    const run: FoldedRun = {};
    for (const event of runEvents) {
      if (event.type === RunEvents.started) run.started = startedRunRowOfEvent(event as StoredEvent & { data: RunStartedData });
      if (event.type === RunEvents.completed && typeof event.data.output === 'string') run.completed = { output: event.data.output, at: event.recordedAt };
    }
    const shapes = [RunEvents.started, RunEvents.completed, `${RunEvents.started} ${RunEvents.completed}`];
    if (!shapes.includes(types)) continue;
    if (types.includes(RunEvents.completed) && !run.completed) continue;
    if (run.started && (writtenBeside.has(runId) || !plainStartedRow(run.started))) continue;
    folded.set(runId, run);
  }
  return folded;
}

const isFolded = (folded: Map<string, FoldedRun>, event: StoredEvent) => isRunEvent(event) && folded.has(event.data.runId);

/**
 * The batch as the set-based form takes it: the events it leaves to the handler in order, then the
 * runs it folds, then the counters it sums; a counter before its run's start dropped.
 */
function splitBatch(events: readonly StoredEvent[]) {
  const folded = planRuns(events);
  const handled: StoredEvent[] = [];
  const foldedEvents: StoredEvent[] = [];
  let counters: Array<{ event: StoredEvent; usage: RunUsage }> = [];
  for (const event of events) {
    const usage = summedUsageOf(event);
    if (usage) {
      counters.push({ event, usage });
      continue;
    }
    if (event.type === RunEvents.started) {
      const runId = String(event.data.runId);
      counters = counters.filter((counter) => counter.usage.runId !== runId);
    }
    (isFolded(folded, event) ? foldedEvents : handled).push(event);
  }
  return { folded, handled, foldedEvents, counters };
}

/**
 * What the set-based form relies on: a runs event writes its own run's row, reading no other. So a
 * run's start and completion commute with every other run's events, and a completion with the
 * reminders and unsummed usage of its own run (they write other columns); so the runs the form folds
 * (none started here and written beside) may follow the events left to the handler. Counter additions (tokens, tool calls) commute with every
 * runs event but the run.started that creates the row (no other reads or writes the three counters):
 * they go last, where they add up to one UPDATE per run, and a counter before its run's start found
 * no row and added nothing, so it is dropped (a start of an existing row fails the transaction in
 * both forms).
 */
export const runsCommuteAndCountersSum: BatchInvariant = {
  name: 'runsCommuteAndCountersSum',
  statement:
    "a run's start and completion commute with other runs' events, a completion with its run's reminders and usage; " +
    'counter additions commute with every runs event but the run.started that creates the row',
  normalForm(events) {
    const { handled, foldedEvents, counters } = splitBatch(events);
    return [...handled, ...foldedEvents, ...counters.map((counter) => counter.event)];
  },
};

/**
 * `runs` on PostgreSQL: the set-based form of RunsProjection. Under the append lock a run's start was
 * an INSERT, its completion a SELECT and an UPDATE, each usage or tool start of its session an UPDATE,
 * a round trip each; here the events the form leaves to the handler run first, in order, then a
 * transaction's starts and completions are one statement (APPLY_RUNS) and its counters one more, their
 * sums per run (`runsCommuteAndCountersSum`).
 */
export const runsOnPostgres: PostgresSetBasedForm = {
  invariant: runsCommuteAndCountersSum,
  async apply(client, events, handle) {
    const { folded, handled, counters } = splitBatch(events);
    if (handled.length > 0) await handle(handled);
    if (folded.size > 0) {
      const inserted: Record<string, unknown>[] = [];
      const ended: Record<string, unknown>[] = [];
      for (const [runId, { started, completed }] of folded) {
        if (started) {
          const end = completed && { status: 'completed', output: completed.output, endedAt: completed.at, updatedAt: completed.at };
          const durationMs = completed ? launchMs(started.launchedAt, completed.at) : 0;
          inserted.push(columnsOf({ ...started, output: null, endedAt: null, ...end, durationMs }, INSERTED_FIELDS));
        } else if (completed) ended.push({ run_id: runId, status: 'completed', output: completed.output, ended_at: completed.at });
      }
      await client.query({ ...APPLY_RUNS, values: [JSON.stringify(inserted), JSON.stringify(ended)] });
    }
    const sums = new Map<string, RunUsage>();
    for (const { usage } of counters) {
      const sum = sums.get(usage.runId);
      if (sum) {
        sum.inputTokens += usage.inputTokens;
        sum.outputTokens += usage.outputTokens;
        sum.toolCalls += usage.toolCalls;
      } else sums.set(usage.runId, { ...usage });
    }
    if (sums.size > 0) await client.query(ADD_USAGE, [JSON.stringify([...sums.values()].map(row))]);
  },
};

/** A row keyed by the columns' SQL names, as jsonb_to_recordset reads it (an absent field is null). */
function columnsOf(row: Record<string, unknown>, fields: readonly Field[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [COLUMNS[field].name, row[field] ?? null]));
}

function row(sum: RunUsage) {
  return { run_id: sum.runId, input_tokens: sum.inputTokens, output_tokens: sum.outputTokens, tool_calls: sum.toolCalls };
}
