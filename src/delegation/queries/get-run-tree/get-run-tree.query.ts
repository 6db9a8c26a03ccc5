import { Query } from '@nestjs/cqrs';
import type { RunUsage, RunView } from '../../run-view';
import type { ReplayLink } from '../get-run/get-run.query';

/** A CLI-native sub-agent (the CLI's own `task` tool) launched inside a run's session. */
export interface CliSubagentNode {
  kind: 'cli_subagent';
  agent_name: string;
  status: string;
  tool_call_id: string;
  child_session_id: string;
  error: string | null;
  /** As the CLI reported it in subagent.completed; already part of the owning run's own usage. */
  usage: { total_tokens: number | null; tool_calls: number | null; duration_ms: number | null };
  started_at: string;
  ended_at: string | null;
}

export interface RunTreeNode extends RunView {
  kind: 'run';
  /** This run and every run below it. */
  subtree_usage: RunUsage;
  children: Array<RunTreeNode | CliSubagentNode>;
  /** issue 26, on the tree's root: the runs that replay or fork it, listed with their original. */
  replays?: ReplayLink[];
}

export class GetRunTree extends Query<RunTreeNode> {
  constructor(readonly runId: string) {
    super();
  }
}
