import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { PauseHolds } from '../../../pauses';
import { GetRunSubtrees, GetRunsById } from '../../../run-lineage';
import { ListThreadSubagents, type SubagentInstanceRow } from '../../../sessions';
import { UnknownRunError } from '../../run.errors';
import { addUsage, toRunView } from '../../run-view';
import { type CliSubagentNode, GetRunTree, type RunTreeNode } from './get-run-tree.query';
import { GetRunReplay } from '../get-run-replay/get-run-replay.query';

/** A tree bigger than this is cut (depth-first path order); GraphQL `subtree` pages through bigger ones. */
const MAX_TREE_RUNS = 10_000;

/**
 * The run, its descendants and the CLI-native sub-agents of each, with own and subtree usage, from the
 * batched lineage queries: three statements whatever the size (the root, one range scan of the path
 * index, the sub-agent instances of every thread).
 */
@QueryHandler(GetRunTree)
export class GetRunTreeHandler implements IQueryHandler<GetRunTree, RunTreeNode> {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly pauses: PauseHolds,
  ) {}

  async execute({ runId }: GetRunTree): Promise<RunTreeNode> {
    const [root] = await this.queryBus.execute(new GetRunsById([runId]));
    if (!root) throw new UnknownRunError(runId);
    const [rows] = await this.queryBus.execute(new GetRunSubtrees([{ path: root.path, depth: root.depth, limit: MAX_TREE_RUNS }]));
    const subagents = await this.queryBus.execute(new ListThreadSubagents(rows.map((r) => r.threadId)));
    const pauses = await this.pauses.pausesOverRuns(rows.map((r) => r.runId));
    const now = Date.now();
    const nodes = new Map<string, RunTreeNode>();
    for (const row of rows) {
      const view = toRunView(row, now, undefined, pauses.get(row.runId));
      nodes.set(row.runId, { kind: 'run', ...view, subtree_usage: view.usage, children: [] });
    }
    rows.forEach((row, i) => (nodes.get(row.runId) as RunTreeNode).children.push(...subagents[i].map(toSubagentNode)));
    // Reverse path order visits every run after its descendants, so each subtree total is final before it is added.
    for (const row of [...rows].reverse()) {
      if (row.runId === root.runId || !row.parentRunId) continue;
      const parent = nodes.get(row.parentRunId);
      const node = nodes.get(row.runId) as RunTreeNode;
      if (!parent) continue;
      parent.children.unshift(node);
      parent.subtree_usage = addUsage(parent.subtree_usage, node.subtree_usage);
    }
    const tree = nodes.get(root.runId) as RunTreeNode;
    const { replays } = await this.queryBus.execute(new GetRunReplay(root.runId));
    tree.replays = replays.map((r) => ({ run_id: r.runId, mode: r.replayMode ?? 'replay', status: r.status, started_at: r.startedAt }));
    return tree;
  }
}

function toSubagentNode(instance: SubagentInstanceRow): CliSubagentNode {
  return {
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
}
