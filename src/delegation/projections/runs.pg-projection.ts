import { getTableName } from 'drizzle-orm';
import { escapeIdentifier } from 'pg';
import { runs } from '../../database/schema-pg';
import type { StoredEvent } from '../../event-store';
import type { BatchInvariant, PostgresSetBasedForm } from '../../projections';
import { RunEvents } from '../run.events';
import { type RunUsage, runUsageOf } from './run-usage';

const TABLE = escapeIdentifier(getTableName(runs));

/** The counters of one batch, one row per run: the sums of its usage and tool-start events. */
const ADD_USAGE = `UPDATE ${TABLE} AS r SET input_tokens = r.input_tokens + t.input_tokens,
  output_tokens = r.output_tokens + t.output_tokens, tool_calls = r.tool_calls + t.tool_calls
FROM jsonb_to_recordset($1::jsonb) AS t(run_id text, input_tokens bigint, output_tokens bigint, tool_calls bigint)
WHERE r.run_id = t.run_id`;

/**
 * A usage or tool-start event the set-based form sums: one on a run's session with whole-number usage.
 * Any other usage runs per event: its UPDATE fails there as it does in RunsProjection, where a sum could hide it.
 */
function summedUsageOf(event: StoredEvent): RunUsage | undefined {
  const usage = runUsageOf(event);
  return usage && Number.isSafeInteger(usage.inputTokens) && Number.isSafeInteger(usage.outputTokens) ? usage : undefined;
}

/**
 * What the set-based form relies on: counter additions (tokens, tool calls) commute with one another
 * and with every other runs event, since no other event reads or writes the three counters (ended
 * reads launched_at and duration_ms, budget_warned reads budget_warnings); so they may all go last,
 * where they add up to one UPDATE per run. Except run.started, which creates the row: a counter event
 * before it found no row and added nothing, so it is dropped (a started for an existing row fails the
 * INSERT, and the transaction, in both forms).
 */
export const counterSumsCommute: BatchInvariant = {
  name: 'counterSumsCommute',
  statement: 'counter additions commute with each other and with every runs event but the run.started that creates the row',
  normalForm(events) {
    const others: StoredEvent[] = [];
    let counters: StoredEvent[] = [];
    for (const event of events) {
      const usage = summedUsageOf(event);
      if (usage) {
        counters.push(event);
        continue;
      }
      if (event.type === RunEvents.started) {
        const runId = String(event.data.runId);
        counters = counters.filter((counter) => summedUsageOf(counter)?.runId !== runId);
      }
      others.push(event);
    }
    return [...others, ...counters];
  },
};

/**
 * `runs` on PostgreSQL: the set-based form of RunsProjection. A run's CLI session records usage and
 * tool starts all along, one counter UPDATE each, a round trip each under the append lock; here a
 * transaction's become one statement, its sums per run, added after every other event has run
 * through RunsProjection's own handler in order (`counterSumsCommute`).
 */
export const runsOnPostgres: PostgresSetBasedForm = {
  invariant: counterSumsCommute,
  async apply(client, events, handle) {
    const sums = new Map<string, RunUsage>();
    for (const event of events) {
      const usage = summedUsageOf(event);
      if (usage) {
        const sum = sums.get(usage.runId);
        if (sum) {
          sum.inputTokens += usage.inputTokens;
          sum.outputTokens += usage.outputTokens;
          sum.toolCalls += usage.toolCalls;
        } else sums.set(usage.runId, { ...usage });
        continue;
      }
      if (event.type === RunEvents.started) sums.delete(String(event.data.runId));
      await handle([event]);
    }
    if (sums.size > 0) await client.query(ADD_USAGE, [JSON.stringify([...sums.values()].map(row))]);
  },
};

function row(sum: RunUsage) {
  return { run_id: sum.runId, input_tokens: sum.inputTokens, output_tokens: sum.outputTokens, tool_calls: sum.toolCalls };
}
