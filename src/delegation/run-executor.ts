import { asSystem, SYSTEM_ACTOR } from '../common';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Subject } from 'rxjs';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { CopilotCliConnection, CopilotCliConnectionLostError } from '../copilot-cli';
import { EventStore, type StoredEvent, runThreadId, sessionStreamId, fieldsOf } from '../event-store';
import { PauseHolds } from '../pauses';
import { Workspaces } from '../workspaces';
import { pausedTimeLimit } from './paused-time-limit';
import {
  CreateSession,
  ResumeSession,
  SendMessage,
  createSessionSchema,
  type SessionReplay,
  type CliAssistantMessagePayload,
  CliRecords,
  type CliToolExecutionStartPayload,
  SessionRegistry,
  foreignSessionAppend,
} from '../sessions';
import type { RunCommand, RunState } from './run.decider';
import { RunStateError, StaleRunCompletionError } from './run.errors';
import { API_THREAD, RunEvents, type RunProgress, type RunProgressData, type RunReplay } from './run.events';
import { RunHandle, RunHandleTable } from './run-handle-table';
import { RunRepository } from './run-repository';
import { runSpanOf } from './run-trace';
import { RemoteRunLauncher } from './remote-runs/remote-run-launcher';
import { cliEventData, endsCurrentTurn, evolveTurn, initialTurnState, isProgress, type TurnOutcome, turnOutcome } from './turn-detection';

/** How a launch ends: its turn's outcome, or cancelled (whoever stopped the run records that). */
type LaunchOutcome = TurnOutcome | { kind: 'cancelled' };

export interface RunTimeout {
  runId: string;
  epoch: number;
  timeoutMs: number;
}

/**
 * Runs one launch of a run: its own CLI session (`sub-agent-<run_id>`) created with the target agent's
 * configuration (or resumed), the prompt sent, then the session's recorded events watched until the
 * main agent's turn ends. The outcome is decided against the run stream with the launch's epoch.
 * Watching the recorded stream (not the CLI directly) means the output a run reports is already durable.
 */
@Injectable()
export class RunExecutor {
  private readonly logger = new Logger(RunExecutor.name);
  private readonly timeouts = new Subject<RunTimeout>();
  /** Runs whose launch outlived their policy's timeout; the stopper stops their subtree. */
  readonly timeouts$ = this.timeouts.asObservable();

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly commandBus: CommandBus,
    private readonly store: EventStore,
    private readonly handles: RunHandleTable,
    private readonly repository: RunRepository,
    private readonly sessions: SessionRegistry,
    private readonly cliConnection: CopilotCliConnection,
    private readonly pauses: PauseHolds,
    private readonly workspaces: Workspaces,
    private readonly remoteRuns: RemoteRunLauncher,
  ) {}

  /** Starts a launch without waiting for it; the handle settles once the launch's final event is recorded. */
  launch(state: RunState, prompt: string, mode: 'start' | 'resume'): RunHandle {
    const handle = this.handles.open(state.started.runId, state.started.ownerThreadId, state.epoch);
    // The launch runs on its own: its session, its messages and its outcome are Switchboard's, not the
    // person's (or agent's) whose request started the run (that request's own events name them).
    void asSystem(() => this.execute(state, prompt, mode, handle));
    return handle;
  }

  /**
   * Resolves true when the session's current turn ends (its main agent's `session.idle` or `abort`, or
   * the session interrupted) within `timeoutMs`, false otherwise. Watches from the stream as it is now:
   * call it before asking the CLI to abort, so the turn's end cannot slip past.
   */
  async turnEnd(sessionId: string, timeoutMs: number): Promise<boolean> {
    const stream = sessionStreamId(sessionId);
    return this.waitFor(stream, await this.store.streamVersion(stream), endsCurrentTurn, timeoutMs);
  }

  private async execute(state: RunState, prompt: string, mode: 'start' | 'resume', handle: RunHandle): Promise<void> {
    const { runId, threadId: sessionId, agentId, policy } = state.started;
    const actor = `run:${runId}`;
    // issue 26: paused time does not count against the limit.
    const timeLimit = pausedTimeLimit(
      policy.timeoutMs,
      (from, to) => this.pauses.pausedMsOver(sessionId, from, to),
      () => this.timeouts.next({ runId, epoch: handle.epoch, timeoutMs: policy.timeoutMs }),
    );
    try {
      if (state.started.remote) {
        // issue 43: a remote agent's run has no session here: its service runs it, the launch follows its task.
        const outcome = await this.remoteRuns.run(state, prompt, handle, (text) => this.forwardProgress(state, { kind: 'message', text }));
        if (outcome.kind !== 'cancelled') await this.record(runId, handle, outcome);
        return;
      }
      if (mode === 'start' || !(await this.store.streamVersion(sessionStreamId(sessionId)))) {
        // The owner's hooks and permission policy cover its runs too: delegating must neither step
        // around a pre-tool-use veto or a person's approval, nor gain what the owner was not allowed.
        // A replay's root is owned by the API: it runs under what its original's session ran under (issue 26).
        const replayOf = state.started.replay?.of;
        const owner =
          this.sessions.get(state.started.ownerThreadId)?.config ??
          (state.started.parentRunId === null && replayOf ? this.sessions.get(runThreadId(replayOf))?.config : undefined);
        const inherited = { hooks: owner?.hooks ?? [], ...(owner ? { permissionPolicy: owner.permissionPolicy } : {}) };
        // issue 30: a scheduled root run (owned by the API, so nothing inherited) takes its schedule's model and policy.
        const given = state.started.session ?? {};
        const replay = state.started.replay ? sessionReplayOf(state.started.replay) : undefined;
        await this.commandBus.execute(
          // issue 42: the run works in a worktree of its own, started from its owner's working state (when the owner has one).
          new CreateSession(
            createSessionSchema.parse({ agentId, delegation: true, ...inherited, ...given }),
            actor,
            sessionId,
            'skip',
            replay,
            state.started.ownerThreadId,
          ),
        );
      } else {
        await this.reopen(sessionId, actor);
      }
      if (handle.stopping) return;
      const stream = sessionStreamId(sessionId);
      const turn = this.watchTurn(state, stream, await this.store.streamVersion(stream), handle);
      try {
        // issue 28: the thread's work nests under this launch's run span (no turn span of its own).
        await this.commandBus.execute(new SendMessage(sessionId, prompt, actor, { run: runSpanOf(state) }));
      } catch (error) {
        turn.cancel();
        throw error;
      }
      const outcome = await turn.outcome;
      if (outcome.kind === 'completed') await this.mergeWorkspace(sessionId);
      if (outcome.kind !== 'cancelled') await this.record(runId, handle, outcome);
    } catch (error) {
      if (!handle.stopping) await this.record(runId, handle, launchFailure(error));
    } finally {
      timeLimit.cancel();
      // A cancelled launch is closed by whoever stopped it, after recording the stop.
      if (!handle.stopping) this.handles.close(handle);
    }
  }

  /** A resumed run's session: resumed on the current CLI when it was interrupted, used as is otherwise. */
  private async reopen(sessionId: string, actor: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) throw new RunStateError(`The run's session ${sessionId} was destroyed; start a new run instead`);
    await this.cliConnection.ensureStarted();
    if (session.status === 'interrupted' || session.cliGeneration !== this.cliConnection.generation) {
      await this.commandBus.execute(new ResumeSession(sessionId, actor));
    }
  }

  /**
   * issue 42: a completed run's changes merged into its owner's worktree before the completion is recorded, so
   * whoever waits on the run (a foreground agent_run, agent_output) reads the merge with it. A failed merge is
   * recorded as such by the workspace and leaves the run completed: its changes stay on its branch.
   */
  private async mergeWorkspace(sessionId: string): Promise<void> {
    try {
      await this.workspaces.mergeIntoParent(sessionId);
    } catch (error) {
      this.logger.warn({ sessionId, err: error }, 'could not merge the run’s workspace into its owner’s; its changes stay on its branch');
    }
  }

  private async record(runId: string, handle: RunHandle, outcome: TurnOutcome): Promise<void> {
    const command: RunCommand =
      outcome.kind === 'completed'
        ? { type: 'complete', epoch: handle.epoch, output: outcome.output }
        : outcome.kind === 'failed'
          ? { type: 'fail', epoch: handle.epoch, error: outcome.error }
          : { type: 'interrupt', epoch: handle.epoch, reason: outcome.reason };
    try {
      await this.repository.decide(runId, command, { actor: 'switchboard', by: SYSTEM_ACTOR });
      this.logger.log({ runId, epoch: handle.epoch, outcome: outcome.kind }, 'run launch ended');
    } catch (error) {
      if (error instanceof StaleRunCompletionError || error instanceof RunStateError) {
        this.logger.warn({ runId, epoch: handle.epoch, reason: error.message }, 'run outcome dropped');
        return;
      }
      this.logger.error({ runId, err: error }, 'could not record the outcome of a run');
    }
  }

  /** The main agent's turn on the run's session: the recorded stream fed to the turn-detection fold. */
  private watchTurn(state: RunState, stream: string, after: number, handle: RunHandle) {
    let cancel = () => {};
    const outcome = new Promise<LaunchOutcome>((resolve) => {
      let turn = initialTurnState();
      let finished = false;
      const forward = this.progressForwarder(state);
      const finish = (result: LaunchOutcome) => {
        if (finished) return;
        finished = true;
        queueMicrotask(() => subscription.unsubscribe());
        handle.cancellation.signal.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const onAbort = () => finish({ kind: 'cancelled' });
      cancel = () => finish({ kind: 'cancelled' });
      const subscription = this.store.subscribeToStream(stream, after).subscribe((event) => {
        turn = evolveTurn(turn, event);
        if (turn.promptSent && isProgress(event)) forward(event);
        const ended = turnOutcome(turn);
        if (ended) finish(ended);
      });
      if (handle.stopping) finish({ kind: 'cancelled' });
      else handle.cancellation.signal.addEventListener('abort', onAbort, { once: true });
    });
    return { outcome, cancel: () => cancel() };
  }

  /**
   * A foreground run just started: its parent session learns its id before its first step (the chat's
   * run card links to the run from the start), `toolCallId` naming the agent_run call that started it.
   */
  announceStart(state: RunState, toolCallId: string | undefined): void {
    this.forwardProgress(state, { kind: 'started', ...(toolCallId ? { toolCallId } : {}) });
  }

  /** spec: a foreground child's progress is forwarded to its parent (here: the parent session's stream). */
  private progressForwarder(state: RunState): (event: StoredEvent) => void {
    return (event) => {
      const data = cliEventData(event);
      const content = fieldsOf<CliAssistantMessagePayload>(data.payload).content;
      const progress: RunProgress | undefined =
        event.type === CliRecords.toolExecutionStart
          ? { kind: 'tool', toolName: fieldsOf<CliToolExecutionStartPayload>(data.payload).toolName }
          : typeof content === 'string' && content.trim()
            ? { kind: 'message', text: content.slice(0, 2000) }
            : undefined;
      if (progress) this.forwardProgress(state, progress, data.agentId);
    };
  }

  /** Appends `run.progress` on the parent session's stream of a foreground run (nothing for a background or API run). */
  private forwardProgress(state: RunState, progress: RunProgress, subAgentId?: string): void {
    const { background, parentThreadId, runId, agentId } = state.started;
    if (background || !parentThreadId || parentThreadId === API_THREAD) return;
    this.store
      .appendMany(
        [
          foreignSessionAppend(parentThreadId, [
            {
              type: RunEvents.progress,
              data: { runId, agentId, ...(subAgentId ? { subAgentId } : {}), ...progress } satisfies RunProgressData,
            },
          ]),
        ],
        { maxDelayMs: 5 },
      )
      .catch((error: unknown) => this.logger.warn({ runId, err: error }, 'could not forward run progress'));
  }

  /** Resolves true when an event matching `predicate` is recorded after `after`, false after `timeoutMs`. */
  private waitFor(stream: string, after: number, predicate: (event: StoredEvent) => boolean, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (value: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        queueMicrotask(() => subscription.unsubscribe());
        resolve(value);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      const subscription = this.store.subscribeToStream(stream, after).subscribe((event) => {
        if (predicate(event)) finish(true);
      });
    });
  }
}

/** issue 26: what the run's session is answered from: the original run's session, matched by agent and position. */
export function sessionReplayOf(replay: RunReplay): SessionReplay {
  return {
    ...(replay.of ? { originalSessionId: runThreadId(replay.of), originalRunId: replay.of } : {}),
    mode: replay.mode,
    onDivergence: replay.onDivergence,
    allowSideEffects: replay.allowSideEffects,
    ...(replay.fromModelCall && replay.fromStartedAt ? { liveFrom: { callId: replay.fromModelCall, startedAt: replay.fromStartedAt } } : {}),
    ...(replay.message ? { message: replay.message } : {}),
    ...(replay.agentOverrides ? { agentOverrides: replay.agentOverrides } : {}),
  };
}

/**
 * A create, resume or send that lost its CLI connection did not fail: the CLI went away (its sessions
 * are interrupted) before it answered, and the run is resumable like any run whose CLI died mid-turn.
 */
function launchFailure(error: unknown): Exclude<TurnOutcome, { kind: 'completed' }> {
  if (error instanceof CopilotCliConnectionLostError) {
    return { kind: 'interrupted', reason: "The Copilot CLI went away before it answered the run's session; resume the run to continue" };
  }
  return { kind: 'failed', error: (error as Error).message };
}
