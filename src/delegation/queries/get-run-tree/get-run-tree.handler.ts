import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm';
import { runs, subagentInstances } from '../../../database/schema';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { subtreeRange } from '../../../run-lineage/run-lineage';
import { UnknownRunError } from '../../run.errors';
import { addUsage, toRunView } from '../../run-view';
import { type CliSubagentNode, GetRunTree, type RunTreeNode } from './get-run-tree.query';

/** SQLite's default limit on bound parameters is far above this; chunks keep each IN list short. */
const IN_CHUNK = 500;

/**
 * The run, its descendants and the CLI-native sub-agents of each, with own and subtree usage.
 * Three kinds of statement whatever the size: the root, the subtree (one range scan on the path
 * index), and the sub-agent instances per chunk of threads.
 */
@QueryHandler(GetRunTree)
export class GetRunTreeHandler implements IQueryHandler<GetRunTree, RunTreeNode> {
  constructor(private readonly database: SqliteDatabase) {}

  async execute({ runId }: GetRunTree): Promise<RunTreeNode> {
    const orm = this.database.orm;
    const root = orm.select().from(runs).where(eq(runs.runId, runId)).get();
    if (!root) throw new UnknownRunError(runId);
    const { from, to } = subtreeRange(root.path);
    const rows = orm
      .select()
      .from(runs)
      .where(and(gte(runs.path, from), lt(runs.path, to)))
      .orderBy(asc(runs.depth), asc(runs.startedAt))
      .all();
    const threads = rows.map((r) => r.threadId);
    const instances = [];
    for (let i = 0; i < threads.length; i += IN_CHUNK) {
      instances.push(
        ...orm
          .select()
          .from(subagentInstances)
          .where(inArray(subagentInstances.parentSessionId, threads.slice(i, i + IN_CHUNK)))
          .orderBy(asc(subagentInstances.startedAt))
          .all(),
      );
    }
    const now = Date.now();
    const nodes = new Map<string, RunTreeNode>();
    for (const row of rows) {
      const view = toRunView(row, now);
      nodes.set(row.runId, { kind: 'run', ...view, subtree_usage: view.usage, children: [] });
    }
    const byThread = new Map(rows.map((r) => [r.threadId, nodes.get(r.runId) as RunTreeNode]));
    for (const instance of instances) {
      const node: CliSubagentNode = {
        kind: 'cli_subagent',
        agent_name: instance.agentName,
        status: instance.status,
        tool_call_id: instance.toolCallId,
        child_session_id: instance.childSessionId,
        error: instance.error,
        usage: { total_tokens: instance.totalTokens, tool_calls: instance.totalToolCalls, duration_ms: instance.durationMs },
        started_at: instance.startedAt,
        ended_at: instance.endedAt,
      };
      byThread.get(instance.parentSessionId)?.children.push(node);
    }
    // Deepest first, so each child's subtree total is final before it is added to its parent's.
    for (const row of [...rows].reverse()) {
      if (row.runId === root.runId || !row.parentRunId) continue;
      const parent = nodes.get(row.parentRunId);
      const node = nodes.get(row.runId) as RunTreeNode;
      if (!parent) continue;
      parent.children.unshift(node);
      parent.subtree_usage = addUsage(parent.subtree_usage, node.subtree_usage);
    }
    return nodes.get(root.runId) as RunTreeNode;
  }
}
