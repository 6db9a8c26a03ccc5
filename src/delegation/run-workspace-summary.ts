import { Injectable } from '@nestjs/common';
import { runThreadId } from '../event-store';
import { Workspaces } from '../workspaces';
import type { RunSummary } from './run-caller';

/** issue 42: what agent_run and agent_output tell the owner about the run's files: the last merge into its worktree. */
@Injectable()
export class RunWorkspaceSummary {
  constructor(private readonly workspaces: Workspaces) {}

  async of(summary: RunSummary): Promise<RunSummary> {
    const threadId = runThreadId(summary.run_id);
    const { merges } = await this.workspaces.history(threadId);
    // Its own branch's merge, not its children's into it.
    const merge = merges.filter((m) => m.sessionId === threadId).at(-1);
    if (!merge) return summary;
    return {
      ...summary,
      workspace: {
        merge: merge.outcome,
        files: merge.files.map((f) => f.path),
        conflicts: merge.conflicts,
        branch: `switchboard/${threadId}`,
        ...(merge.error ? { error: merge.error } : {}),
      },
    };
  }
}
