import { getTableName } from 'drizzle-orm';
import { escapeIdentifier } from 'pg';
import { routedRequests } from '../../database/schema-pg';
import type { StoredEvent } from '../../event-store';
import type { BatchInvariant, PostgresSetBasedForm } from '../../projections';
import { isRoutedRequestEvent } from '../routed-request.events';
import { routedRequestRow, type RoutedRequestRow } from './routed-request-row';

const TABLE = escapeIdentifier(getTableName(routedRequests));

/** A transaction's routed requests, one row each: named, so each pooled connection parses it once. */
const INSERT_ROWS = {
  name: 'routed_requests_insert_batch',
  text: `INSERT INTO ${TABLE} (global_position, parent_session_id, child_session_id, agent_name, kind, tool_name, arguments,
  result, outcome, reason, latency_ms, recorded_at)
SELECT t.global_position, t.parent_session_id, t.child_session_id, t.agent_name, t.kind, t.tool_name, t.arguments,
  t.result, t.outcome, t.reason, t.latency_ms, t.recorded_at
FROM jsonb_to_recordset($1::jsonb) AS t(global_position bigint, parent_session_id text, child_session_id text, agent_name text,
  kind text, tool_name text, arguments text, result text, outcome text, reason text, latency_ms bigint, recorded_at text)`,
};

/**
 * The rows the set-based form writes in its one statement: a latency that is not a finite number
 * fails RoutedRequestsProjection's insert (NaN is no bigint) but would be a JSON null here, so that
 * event runs through the handler and fails there.
 */
function batchedRowOf(event: StoredEvent): RoutedRequestRow | undefined {
  if (!isRoutedRequestEvent(event)) return undefined;
  const row = routedRequestRow(event);
  return Number.isFinite(row.latencyMs) ? row : undefined;
}

/**
 * What the set-based form relies on: a routed request's event inserts one row of its own (keyed by
 * its global position) and reads nothing, so the events of a batch commute: the ones the form leaves
 * to the handler may go first, and the rest in one INSERT after them.
 */
export const routedRowsAreIndependent: BatchInvariant = {
  name: 'routedRowsAreIndependent',
  statement: "each routed request's event inserts its own row and reads none, so a batch's events commute",
  normalForm(events) {
    return [...events.filter((event) => !batchedRowOf(event)), ...events.filter((event) => batchedRowOf(event))];
  },
};

/**
 * `routed_requests` on PostgreSQL: the set-based form of RoutedRequestsProjection. Every tool call,
 * permission and hook a CLI routes is one INSERT, a round trip each under the append lock; here a
 * transaction's rows go in one statement (`routedRowsAreIndependent`).
 */
export const routedRequestsOnPostgres: PostgresSetBasedForm = {
  invariant: routedRowsAreIndependent,
  async apply(client, events, handle) {
    const rows: Record<string, unknown>[] = [];
    for (const event of events) {
      const row = batchedRowOf(event);
      if (row) rows.push(columnsOf(row));
      else await handle([event]);
    }
    if (rows.length > 0) await client.query({ ...INSERT_ROWS, values: [JSON.stringify(rows)] });
  },
};

function columnsOf(row: RoutedRequestRow): Record<string, unknown> {
  return {
    global_position: row.globalPosition,
    parent_session_id: row.parentSessionId,
    child_session_id: row.childSessionId,
    agent_name: row.agentName,
    kind: row.kind,
    tool_name: row.toolName,
    arguments: row.arguments,
    result: row.result,
    outcome: row.outcome,
    reason: row.reason,
    latency_ms: row.latencyMs,
    recorded_at: row.recordedAt,
  };
}
