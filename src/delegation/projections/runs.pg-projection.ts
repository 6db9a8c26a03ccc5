import { getTableName } from 'drizzle-orm';
import { escapeIdentifier, type ClientBase } from 'pg';
import { runs } from '../../database/schema-pg';
import type { StoredEvent } from '../../event-store/event-store.types';
import { type PgProjection, PostgresBatchForm, readModelsOn } from '../../event-store/postgres/pg-projection';
import { runProjectionAsync } from '../../event-store/projection';
import { RunEvents } from '../run.events';
import { RunsProjection, runUsageOf, type RunUsage } from './runs.projection';

const TABLE = escapeIdentifier(getTableName(runs));

/** The counters of one batch, one row per run: the sums of its usage and tool-start events. */
const ADD_USAGE = `UPDATE ${TABLE} AS r SET input_tokens = r.input_tokens + t.input_tokens,
  output_tokens = r.output_tokens + t.output_tokens, tool_calls = r.tool_calls + t.tool_calls
FROM jsonb_to_recordset($1::jsonb) AS t(run_id text, input_tokens bigint, output_tokens bigint, tool_calls bigint)
WHERE r.run_id = t.run_id`;

/**
 * `runs` on PostgreSQL: the batch form of RunsProjection. A run's CLI session records usage and tool
 * starts all along, one counter UPDATE each, a round trip each under the append lock; here a
 * transaction's become one statement, its sums per run. Every other event runs through
 * RunsProjection itself, in order. The sums are added after those, which gives the same rows:
 * - additions commute with one another, and no other event reads or writes the three counters
 *   (ended reads launched_at and duration_ms, budget_warned reads budget_warnings);
 * - except run.started, which creates the row: a counter event before it found no row and added
 *   nothing, so the run's sums so far are dropped there (a started for an existing row fails the
 *   INSERT, and the transaction, in both forms).
 * A usage that is not a whole number runs per event too: its UPDATE fails there as it does in
 * RunsProjection, where a sum could have hidden it.
 */
@PostgresBatchForm()
export class RunsPgProjection implements PgProjection {
  readonly name = 'runs';
  readonly tables = [getTableName(runs)];
  private readonly perEvent = new RunsProjection();
  readonly eventTypes = this.perEvent.eventTypes;

  async apply(client: ClientBase, events: readonly StoredEvent[]): Promise<void> {
    const sums = new Map<string, RunUsage>();
    for (const event of events) {
      const usage = runUsageOf(event);
      if (usage && Number.isSafeInteger(usage.inputTokens) && Number.isSafeInteger(usage.outputTokens)) {
        const sum = sums.get(usage.runId);
        if (sum) {
          sum.inputTokens += usage.inputTokens;
          sum.outputTokens += usage.outputTokens;
          sum.toolCalls += usage.toolCalls;
        } else sums.set(usage.runId, { ...usage });
        continue;
      }
      if (event.type === RunEvents.started) sums.delete(String(event.data.runId));
      await runProjectionAsync(this.perEvent.apply(event, readModelsOn(client)));
    }
    if (sums.size > 0) await client.query(ADD_USAGE, [JSON.stringify([...sums.values()].map(row))]);
  }
}

function row(sum: RunUsage) {
  return { run_id: sum.runId, input_tokens: sum.inputTokens, output_tokens: sum.outputTokens, tool_calls: sum.toolCalls };
}
