import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { NotFoundError, type TraceParent } from '../common';
import { runThreadId } from '../event-store';
import { ModelCallsReadModel } from '../model-calls';
import { Workspaces } from '../workspaces';
import { RunOrigin, StartRun } from './commands/start-run/start-run.command';
import type { RunState } from './run.decider';
import { NotReplayableError, RunStateError } from './run.errors';
import type { RunReplay, RunWorkspaceRequest } from './run.events';
import type { RunSummary } from './run-caller';
import type { RunPolicyInput } from './run-policy';
import { RunRepository } from './run-repository';

/** The model call a fork goes live from, as checked: a finished call of the original's subtree. */
export interface ForkPoint {
  callId: string;
  startedAt: string;
}

/**
 * issue 26: what a replay or fork may start from. The original must have ended (a running tree is still
 * writing its record: 409) and its model calls must have been recorded whole (422 saying why not); a
 * fork's call must be a finished call of the original's subtree (404 unknown, 422 otherwise).
 */
@Injectable()
export class ReplayOrigin {
  constructor(
    private readonly repository: RunRepository,
    private readonly calls: ModelCallsReadModel,
    private readonly commandBus: CommandBus,
    private readonly workspaces: Workspaces,
  ) {}

  /**
   * A replay or fork is a new root run owned by the API thread: the original's agent, prompt and policy,
   * no budget (it spends nothing while it plays back), its session answered from the original's record.
   */
  async start(original: RunState, replay: RunReplay, background: boolean, actor: string, traceparent?: TraceParent): Promise<RunSummary> {
    const { agentId, prompt } = original.started;
    const workspace = await this.workspaceOf(original, replay.mode === 'fork' ? replay.fromModelCall : undefined);
    return this.commandBus.execute(
      new StartRun(
        { agentId, prompt, background, policy: samePolicy(original), ...(workspace ? { workspace } : {}) },
        { kind: 'api', actor, ...(traceparent ? { traceparent } : {}) },
        RunOrigin.replaying(replay),
      ),
    );
  }

  /**
   * issue 42 item 7: the files a replay or fork starts from. A replay starts from the original's base; a fork
   * from the original's worktree as it was when its fork point's call started (the steps whose results that
   * call saw, and the runs merged into it by then). The original's branch keeps those commits, whether its
   * folder is still there or not.
   */
  private async workspaceOf(original: RunState, forkCallId: string | undefined): Promise<RunWorkspaceRequest | undefined> {
    const opened = await this.workspaces.opened(runThreadId(original.started.runId));
    if (!opened) return undefined;
    const point = forkCallId ? await this.calls.find(forkCallId) : undefined;
    const commit = point
      ? await this.workspaces.commitBefore(
          opened.sessionId,
          point.startedPosition,
          new Set(await this.calls.answerIdsBefore(point.startedPosition, original.started.path)),
        )
      : undefined;
    return { repository: opened.repository, ref: commit ?? opened.baseCommit, merge: opened.merge };
  }

  async original(runId: string): Promise<RunState> {
    const original = await this.repository.get(runId);
    if (original.status === 'running') {
      throw new RunStateError(`Run ${runId} is running; only an ended run can be replayed or forked (stop it or wait for it to end)`, {
        runId,
        status: original.status,
      });
    }
    const problem = await this.calls.replayableProblem(original.started.path);
    if (problem) throw new NotReplayableError(`Run ${runId} cannot be replayed: ${problem}`, { runId });
    return original;
  }

  async forkPoint(original: RunState, callId: string): Promise<ForkPoint> {
    const call = await this.calls.find(callId);
    if (!call) throw new NotFoundError(`Model call ${callId} does not exist`, { modelCallId: callId });
    const { runId, path } = original.started;
    if (!call.runPath?.startsWith(path)) {
      throw new NotReplayableError(`Model call ${callId} is not a call of run ${runId} or a run under it; pick one from its timeline`, {
        modelCallId: callId,
        runId,
      });
    }
    if (call.status !== 'succeeded' || (call.httpStatus ?? 200) >= 400) {
      throw new NotReplayableError(`Model call ${callId} is ${call.status}; a fork goes live from a finished call`, { modelCallId: callId });
    }
    return { callId, startedAt: call.startedAt };
  }
}

/** The original's resolved policy as a new run's request: the replay runs under the same limits. */
export function samePolicy(original: RunState): RunPolicyInput {
  const { policy } = original.started;
  return {
    ...(policy.allowedAgents ? { allowed_agents: policy.allowedAgents } : {}),
    excluded_agents: policy.excludedAgents,
    max_depth: policy.maxDepth,
    max_concurrent_children: policy.maxConcurrentChildren,
    timeout_ms: policy.timeoutMs,
  };
}
