import type { Message, Task } from '@a2a-js/sdk';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { SYSTEM_ACTOR } from '../../common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../config';
import { InstanceLease } from '../../instances';
import type { RunState } from '../run.decider';
import type { RunHandle } from '../run-handle-table';
import { RunRepository } from '../run-repository';
import type { TurnOutcome } from '../turn-detection';
import { type RemoteAgent, RemoteAgentClients } from './remote-agent-client';
import { remoteTaskOutcome, textOfParts } from './remote-task-outcome';

/** Polls in a row that may fail (the service down, the network gone) before the run fails; waits double up to 30 s between them. */
const MAX_FAILED_POLLS = 10;
const MAX_POLL_BACKOFF_MS = 30_000;

export type RemoteLaunchOutcome = TurnOutcome | { kind: 'cancelled' };

/**
 * issue 43: one launch of a remote agent's run. The prompt goes to the agent's service as an A2A message
 * (answered at once with a task), the task is linked to the run (`run.remote_task_linked`: its id, and this
 * instance as the one following it), then asked for its state until it ends. A launch that finds its task
 * already linked (recovery after a crash) follows it without sending again; a resume sends its prompt into
 * the same remote context. Stopping the run cancels the remote task (`cancel`, from the stopper).
 */
@Injectable()
export class RemoteRunLauncher implements OnModuleDestroy {
  private readonly logger = new Logger(RemoteRunLauncher.name);
  /** Aborted when the service stops: launches stop following, their runs stay running, and the next start follows them again. */
  private readonly stopping = new AbortController();

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly clients: RemoteAgentClients,
    private readonly repository: RunRepository,
    private readonly lease: InstanceLease,
  ) {}

  onModuleDestroy(): void {
    this.stopping.abort(new Error('Switchboard is stopping'));
  }

  async run(state: RunState, prompt: string, handle: RunHandle, progress: (text: string) => void): Promise<RemoteLaunchOutcome> {
    const signal = AbortSignal.any([handle.cancellation.signal, this.stopping.signal]);
    try {
      return await this.launch(state, prompt, handle, signal, progress);
    } catch (error) {
      // Cut short by the service stopping: not the run's failure (the next start follows or interrupts it).
      if (this.stopping.signal.aborted) return { kind: 'cancelled' };
      throw error;
    }
  }

  private async launch(
    state: RunState,
    prompt: string,
    handle: RunHandle,
    signal: AbortSignal,
    progress: (text: string) => void,
  ): Promise<RemoteLaunchOutcome> {
    const { runId, remote } = state.started;
    if (!remote) throw new Error(`Run ${runId} is not a remote agent's run`);
    const agent = await this.connect(remote.a2a);
    const linked = state.remoteTask?.epoch === handle.epoch ? state.remoteTask : undefined;
    let task: Task;
    if (linked) {
      task = await agent.getTask(linked.taskId, signal);
      if (linked.instanceId !== this.lease.instanceId) await this.link(runId, handle, agent, task);
    } else {
      const answer = await agent.send(prompt, { messageId: `${runId}-${handle.epoch}`, contextId: state.remoteTask?.contextId }, signal);
      // A service may answer a message with a message rather than a task: the answer is the run's output.
      if (!isTask(answer)) return { kind: 'completed', output: textOfParts(answer.parts) };
      task = answer;
      try {
        await this.link(runId, handle, agent, task);
      } catch (error) {
        // Stopped while the message was on its way: the stopper saw no task to cancel, so it is cancelled here.
        await this.cancelTask(runId, agent, task.id);
        throw error;
      }
      if (handle.stopping) {
        await this.cancelTask(runId, agent, task.id);
        return { kind: 'cancelled' };
      }
    }
    const outcome = await this.follow(agent, task, handle.runId, signal, progress);
    if (outcome.kind === 'cancelled') return outcome;
    if (outcome.task) await this.reportUsage(handle, outcome.task);
    return outcome.outcome;
  }

  /** Cancels the run's remote task, when it has one; a refusal (it already ended) or an unreachable service is logged. */
  async cancel(state: RunState): Promise<void> {
    const { remote, runId } = state.started;
    if (!remote || !state.remoteTask) return;
    try {
      await this.cancelTask(runId, await this.connect(remote.a2a), state.remoteTask.taskId);
    } catch (error) {
      this.logger.warn({ runId, taskId: state.remoteTask.taskId, err: error }, 'could not cancel the remote task');
    }
  }

  private async cancelTask(runId: string, agent: RemoteAgent, taskId: string): Promise<void> {
    try {
      await agent.cancelTask(taskId);
      this.logger.log({ runId, taskId }, 'remote task cancelled');
    } catch (error) {
      this.logger.warn({ runId, taskId, err: error }, 'could not cancel the remote task');
    }
  }

  private async connect(cardUrl: string): Promise<RemoteAgent> {
    try {
      return await this.clients.connect(cardUrl);
    } catch (error) {
      throw new Error(`Could not reach the remote agent at ${cardUrl}: ${(error as Error).message}`, { cause: error });
    }
  }

  private async link(runId: string, handle: RunHandle, agent: RemoteAgent, task: Task): Promise<void> {
    await this.repository.decide(
      runId,
      {
        type: 'link_remote_task',
        epoch: handle.epoch,
        taskId: task.id,
        contextId: task.contextId,
        service: agent.name,
        instanceId: this.lease.instanceId,
      },
      { actor: 'switchboard', by: SYSTEM_ACTOR },
    );
  }

  /** issue 43: what the service says the task used, when its metadata says it as Switchboard's A2A tasks do. */
  private async reportUsage(handle: RunHandle, task: Task): Promise<void> {
    const usage = reportedUsage(task.metadata);
    if (!usage) return;
    await this.repository
      .decide(handle.runId, { type: 'report_remote_usage', epoch: handle.epoch, taskId: task.id, ...usage }, { actor: 'switchboard', by: SYSTEM_ACTOR })
      .catch((error: unknown) => this.logger.warn({ runId: handle.runId, err: error }, "could not record the remote task's usage"));
  }

  /** Asks for the task's state every SWITCHBOARD_A2A_POLL_MS until it ends or the run is stopped. */
  private async follow(
    agent: RemoteAgent,
    first: Task,
    runId: string,
    signal: AbortSignal,
    progress: (text: string) => void,
  ): Promise<{ kind: 'cancelled' } | { kind: 'ended'; outcome: TurnOutcome; task?: Task }> {
    let task = first;
    let told: string | undefined;
    let failed = 0;
    for (;;) {
      const outcome = remoteTaskOutcome(task, agent.name);
      if (outcome.kind !== 'working') return { kind: 'ended', outcome, task };
      if (outcome.waiting && outcome.waiting !== told) progress((told = outcome.waiting));
      const wait = failed === 0 ? this.config.a2a.pollMs : Math.min(MAX_POLL_BACKOFF_MS, this.config.a2a.pollMs * 2 ** failed);
      if (!(await pause(wait, signal))) return { kind: 'cancelled' };
      try {
        task = await agent.getTask(task.id, signal);
        failed = 0;
      } catch (error) {
        if (signal.aborted) return { kind: 'cancelled' };
        failed++;
        this.logger.warn({ runId, taskId: task.id, failed, err: error }, 'could not ask the remote task for its state');
        if (failed >= MAX_FAILED_POLLS) {
          const lostTouch = `Lost touch with ${agent.name} (task ${task.id}) after ${failed} failed polls: ${(error as Error).message}`;
          return { kind: 'ended', outcome: { kind: 'failed', error: lostTouch } };
        }
      }
    }
  }
}

const isTask = (answer: Task | Message): answer is Task => 'status' in answer;

/** `metadata.switchboard.{totalTokens, cost, currency}` (or the same keys at the top), the numbers that are numbers. */
export function reportedUsage(metadata: Task['metadata']): { totalTokens?: number; cost?: number; currency?: string } | undefined {
  const source: unknown = metadata?.switchboard ?? metadata;
  if (typeof source !== 'object' || source === null) return undefined;
  const { totalTokens, cost, currency } = source as Record<string, unknown>;
  const usage = {
    ...(typeof totalTokens === 'number' && Number.isFinite(totalTokens) ? { totalTokens } : {}),
    ...(typeof cost === 'number' && Number.isFinite(cost) ? { cost } : {}),
    ...(typeof currency === 'string' && currency.length <= 16 ? { currency } : {}),
  };
  return usage.totalTokens !== undefined || usage.cost !== undefined ? usage : undefined;
}

/** Waits `ms`; false when the signal aborted first. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
