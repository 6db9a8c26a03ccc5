import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import { EventStore, runThreadId, sessionStreamId } from '../../../event-store';
import { agentPermissionPolicyOf, LiveSessionLookup, SessionRegistry } from '../../../sessions';
import { PauseHolds } from '../../../pauses';
import { Workspaces } from '../../../workspaces';
import type { RunState } from '../../run.decider';
import { InvalidRunArgumentsError, RunStateError } from '../../run.errors';
import type { RunSessionSettings, RunStartedData } from '../../run.events';
import { assertOwner, callerActor, type RunCaller, type RunSummary, toSummary } from '../../run-caller';
import { RunExecutor } from '../../run-executor';
import { RunHandleTable } from '../../run-handle-table';
import { holdRunSession } from '../../run-holder';
import { RunRepository } from '../../run-repository';
import { RunWorkspaceSummary } from '../../run-workspace-summary';
import { resumedRunTrace, startedRunTrace } from '../../run-trace';
import { A2A_CONTEXT_HEADING, type ForkedTranscript, forkedPrompt } from '../../fork-context';
import { RunAdmission } from './run-admission';
import { type A2aStart, type RunOrigin, StartRun, type StartRunInput } from './start-run.command';

@CommandHandler(StartRun)
export class StartRunHandler implements ICommandHandler<StartRun, RunSummary> {
  private readonly logger = new Logger(StartRunHandler.name);

  constructor(
    private readonly repository: RunRepository,
    private readonly executor: RunExecutor,
    private readonly handles: RunHandleTable,
    private readonly sessions: SessionRegistry,
    private readonly store: EventStore,
    private readonly liveSessions: LiveSessionLookup,
    private readonly admission: RunAdmission,
    private readonly runWorkspace: RunWorkspaceSummary,
    private readonly workspaces: Workspaces,
    private readonly pauses: PauseHolds,
  ) {}

  async execute({ input, caller, origin }: StartRun): Promise<RunSummary> {
    if (input.runId) return this.runWorkspace.of(await this.continueRun(input, caller));
    if (!input.agentId || !input.prompt?.trim()) {
      throw new InvalidRunArgumentsError('Give agent_id and prompt to start a run, or run_id to resume or check one');
    }
    // issue 42: a foreground run tells its owner what reached the owner's worktree (merged files or conflicts).
    return this.runWorkspace.of(await this.start(input as StartRunInput & { agentId: string; prompt: string }, caller, origin));
  }

  /** Admitted (placed, checked against the delegating policy and the covering budgets), recorded, then launched. */
  private async start(input: StartRunInput & { agentId: string; prompt: string }, caller: RunCaller, origin: RunOrigin | undefined): Promise<RunSummary> {
    // issue 42: a repository outside the list or an unknown ref is refused (422) before the run is recorded.
    if (input.workspace) await this.workspaces.check(input.workspace);
    const { agent, placement, policy, budget, fork, replay, scheduled } = await this.admission.admit(input, caller, origin);
    // issue 30: a scheduled start names its run, so whoever completes the firing starts this one run.
    const runId = scheduled?.newRunId ?? uuidv7();
    const data: RunStartedData = {
      runId,
      agentId: input.agentId,
      prompt: input.prompt,
      background: input.background,
      parentRunId: placement.parent?.started.runId ?? null,
      parentThreadId: placement.parentThreadId,
      ownerThreadId: placement.ownerThreadId,
      rootRunId: placement.parent?.started.rootRunId ?? runId,
      depth: placement.depth,
      path: `${placement.parent?.started.path ?? '/'}${runId}/`,
      threadId: runThreadId(runId),
      epoch: 1,
      policy,
      ...(fork ? { forkContext: true as const, forkedMessages: fork.messages.length } : {}),
      ...(budget ? { budget } : {}),
      ...(replay ? { replay } : {}),
      ...(scheduled ? { scheduledBy: { scheduleId: scheduled.schedule.scheduleId, firingId: scheduled.schedule.firingId } } : {}),
      ...(scheduled || input.workspace || origin?.a2a
        ? {
            session: sessionSettings({
              // issue 43: an A2A task has no owner session to inherit from: it runs under its agent's own policy.
              ...(origin?.a2a ? { permissionPolicy: agentPermissionPolicyOf(agent) } : {}),
              ...scheduled?.session,
              ...(input.workspace ? { workspace: input.workspace } : {}),
            }),
          }
        : {}),
      ...(origin?.a2a ? { a2a: { contextId: origin.a2a.contextId, priorMessages: origin.a2a.earlier.messages.length } } : {}),
      ...(agent.remote ? { remote: { a2a: agent.remote.a2a } } : {}),
      agentName: agent.name,
      trace: startedRunTrace(runId, placement.parent, caller, this.callerSessionTrace(caller)),
    };
    const state = await this.repository.decide(runId, { type: 'start', data }, { actor: callerActor(caller) });
    this.logger.log(
      { runId, agentId: input.agentId, parentRunId: data.parentRunId, background: input.background, forkedMessages: data.forkedMessages },
      'run started',
    );
    const handle = this.executor.launch(state, firstPrompt(input.prompt, fork, origin?.a2a), 'start');
    if (input.background) return toSummary(state);
    this.executor.announceStart(state, caller.kind === 'tool' ? caller.toolCallId : undefined);
    await handle.settled;
    return toSummary(await this.repository.get(runId));
  }

  /** agent_run with run_id: resume an interrupted or stopped run, otherwise report (and in foreground await) it. */
  private async continueRun(input: StartRunInput, caller: RunCaller): Promise<RunSummary> {
    const runId = input.runId as string;
    if (input.forkContext) {
      throw new InvalidRunArgumentsError('fork_context applies when a run starts; a resumed run continues its own conversation');
    }
    const state = await this.repository.get(runId);
    assertOwner(state, caller);
    if (input.agentId && input.agentId !== state.started.agentId) {
      throw new InvalidRunArgumentsError(`Run ${runId} runs ${state.started.agentId}, not ${input.agentId}; leave agent_id out when giving run_id`);
    }
    // Waiting for it or resuming it happens where it is held; an ended run is only reported.
    if (state.status !== 'completed' && state.status !== 'failed') await holdRunSession(this.liveSessions, state);
    switch (state.status) {
      case 'running': {
        // A paused run does not end until someone unpauses it: waiting on it would hold the caller without end.
        const pause = input.background ? undefined : await this.pauses.pauseOverRun(runId);
        if (pause) {
          throw new RunStateError(`Run ${runId} is paused (since ${pause.since}, by ${pause.by}); unpause it first, or ask with background: true`);
        }
        if (!input.background) await this.handles.get(runId)?.settled;
        return toSummary(await this.repository.get(runId));
      }
      case 'completed':
      case 'failed':
        if (input.prompt) {
          throw new RunStateError(`Run ${runId} is ${state.status} and cannot take another prompt; start a new run instead`);
        }
        return toSummary(state);
      case 'interrupted':
      case 'stopped': {
        const { threadId } = state.started;
        await this.admission.assertResumeBudgetLeft(state);
        if ((await this.store.streamVersion(sessionStreamId(threadId))) > 0 && !this.sessions.get(threadId)) {
          throw new RunStateError(`Run ${runId} cannot be resumed: its session was destroyed when it was force-stopped; start a new run instead`);
        }
        const prompt = input.prompt?.trim() ? input.prompt : continuation(state);
        const trace = resumedRunTrace(state, caller, this.callerSessionTrace(caller));
        const resumed = await this.repository.decide(
          runId,
          { type: 'resume', prompt, resumedBy: callerActor(caller), trace },
          { actor: callerActor(caller) },
        );
        this.logger.log({ runId, epoch: resumed.epoch }, 'run resumed');
        const handle = this.executor.launch(resumed, prompt, 'resume');
        if (input.background) return toSummary(resumed);
        await handle.settled;
        return toSummary(await this.repository.get(runId));
      }
    }
  }

  /** issue 28: the calling session's current trace (its last message's), for an agent_run call. */
  private callerSessionTrace(caller: RunCaller) {
    return caller.kind === 'tool' ? this.sessions.get(caller.sessionId)?.trace : undefined;
  }
}

/** Only the settings given: an absent model or policy leaves the agent's (or the default) in place. */
function sessionSettings({ model, permissionPolicy, workspace }: RunSessionSettings): RunSessionSettings {
  return { ...(model ? { model } : {}), ...(permissionPolicy ? { permissionPolicy } : {}), ...(workspace ? { workspace } : {}) };
}

/** The run's first message: its task, after the caller's conversation (`forkContext`) or its A2A context's earlier messages. */
function firstPrompt(task: string, fork: ForkedTranscript | undefined, a2a: A2aStart | undefined): string {
  if (fork) return forkedPrompt(fork, task);
  if (a2a) return forkedPrompt(a2a.earlier, task, A2A_CONTEXT_HEADING);
  return task;
}

function continuation(state: RunState): string {
  return `Your previous work on this task was interrupted before it finished. Continue where you left off and finish it.\n\nThe task: ${state.started.prompt}`;
}
