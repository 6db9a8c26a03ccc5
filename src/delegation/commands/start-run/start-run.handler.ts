import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import { AgentLibrary } from '../../../agents/agent-library';
import { SWITCHBOARD_CONFIG } from '../../../config/config.module';
import type { SwitchboardConfig } from '../../../config/switchboard-config';
import { EventStore } from '../../../event-store/event-store';
import type { StoredEvent } from '../../../event-store/event-store.types';
import { streamPages } from '../../../event-store/stream-pages';
import { runIdOfThread, runThreadId, sessionStreamId } from '../../../event-store/stream-ids';
import { RunsReadModel } from '../../../run-lineage/runs-read-model';
import { LiveSessionLookup } from '../../../sessions/live-session-lookup';
import { SessionRegistry } from '../../../sessions/session-registry';
import type { RunState } from '../../run.decider';
import { BudgetGuard } from '../../budget-guard';
import { type CoveringBudget, describeBreach, exhaustion, narrowBudget, toRunBudget } from '../../run-budget';
import { BudgetExceededError, InvalidRunArgumentsError, PolicyDeniedError, RunStateError, UnknownAgentError } from '../../run.errors';
import { type RunStartedData, RunEvents } from '../../run.events';
import { assertOwner, callerActor, callerThread, type RunCaller, type RunSummary, toSummary } from '../../run-caller';
import { RunExecutor } from '../../run-executor';
import { RunHandleTable } from '../../run-handle-table';
import { holdRunSession } from '../../run-holder';
import { delegationRefusal, type ResolvedRunPolicy, resolveRunPolicy } from '../../run-policy';
import { RunRepository } from '../../run-repository';
import { FORK_TRANSCRIPT_TYPES, forkedPrompt, forkTranscript } from '../../fork-context';
import { foreignSessionAppend } from '../../../sessions/session-stream-appends';
import { StartRun, type StartRunInput } from './start-run.command';

/** Where a new run attaches: its parent run (if any), the thread that owns it, and the policy it is checked against. */
interface Placement {
  parent: RunState | undefined;
  ownerThreadId: string;
  parentThreadId: string | null;
  callerAgentId: string | undefined;
  /** undefined: a root run started over the API, which no delegating agent's policy governs. */
  delegatingPolicy: ResolvedRunPolicy | undefined;
  depth: number;
  /** The session a refusal is recorded on. */
  refusalSessionId: string | undefined;
}

@CommandHandler(StartRun)
export class StartRunHandler implements ICommandHandler<StartRun, RunSummary> {
  private readonly logger = new Logger(StartRunHandler.name);

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly repository: RunRepository,
    private readonly executor: RunExecutor,
    private readonly handles: RunHandleTable,
    private readonly library: AgentLibrary,
    private readonly sessions: SessionRegistry,
    private readonly runs: RunsReadModel,
    private readonly store: EventStore,
    private readonly budgets: BudgetGuard,
    private readonly liveSessions: LiveSessionLookup,
  ) {}

  async execute({ input, caller }: StartRun): Promise<RunSummary> {
    if (input.runId) return this.continueRun(input, caller);
    if (!input.agentId || !input.prompt?.trim()) {
      throw new InvalidRunArgumentsError('Give agent_id and prompt to start a run, or run_id to resume or check one');
    }
    return this.start(input as StartRunInput & { agentId: string; prompt: string }, caller);
  }

  private async start(input: StartRunInput & { agentId: string; prompt: string }, caller: RunCaller): Promise<RunSummary> {
    const agent = await this.library.find(input.agentId);
    if (!agent) throw new UnknownAgentError(input.agentId);
    const placement = await this.place(input, caller);
    if (placement.delegatingPolicy) {
      // Not atomic with the run.started append further down (awaits lie between, as they did when this read
      // was synchronous): two agent_run calls of one thread at the same moment can both pass the limit.
      const refusal = delegationRefusal(placement.delegatingPolicy, {
        targetAgentId: input.agentId,
        callerAgentId: placement.callerAgentId,
        depth: placement.depth,
        runningChildren: await this.runs.runningOwnedBy(placement.ownerThreadId),
      });
      if (refusal) await this.refuse(placement, input, caller, refusal);
    }
    const covering = await this.budgets.covering(placement.parent?.started.path, await this.treeOwner(placement));
    this.assertBudgetLeft(covering, input.agentId);
    const budget = narrowBudget(toRunBudget(input.budget), covering);
    const fork = input.forkContext ? await this.forkFrom(placement) : undefined;
    const runId = uuidv7();
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
      policy: this.childPolicy(resolveRunPolicy(input.policy, agent, this.config.runs), placement.parent),
      ...(fork ? { forkContext: true as const, forkedMessages: fork.messages.length } : {}),
      ...(budget ? { budget } : {}),
    };
    const state = await this.repository.decide(runId, { type: 'start', data }, { actor: callerActor(caller) });
    this.logger.log(
      { runId, agentId: input.agentId, parentRunId: data.parentRunId, background: input.background, forkedMessages: data.forkedMessages },
      'run started',
    );
    const handle = this.executor.launch(state, fork ? forkedPrompt(fork, input.prompt) : input.prompt, 'start');
    if (input.background) return toSummary(state);
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
      case 'running':
        if (!input.background) await this.handles.get(runId)?.settled;
        return toSummary(await this.repository.get(runId));
      case 'completed':
      case 'failed':
        if (input.prompt) {
          throw new RunStateError(`Run ${runId} is ${state.status} and cannot take another prompt; start a new run instead`);
        }
        return toSummary(state);
      case 'interrupted':
      case 'stopped': {
        const { threadId } = state.started;
        // A resumed run adds no run: only the other limits can refuse it.
        const owner = state.started.parentRunId
          ? (await this.repository.load(state.started.rootRunId))?.started.ownerThreadId
          : state.started.ownerThreadId;
        const covering = (await this.budgets.covering(state.started.path, owner)).map(({ budget: { max_runs: _runs, ...rest }, ...c }) => ({
          ...c,
          budget: rest,
        }));
        this.assertBudgetLeft(covering, state.started.agentId);
        if ((await this.store.streamVersion(sessionStreamId(threadId))) > 0 && !this.sessions.get(threadId)) {
          throw new RunStateError(`Run ${runId} cannot be resumed: its session was destroyed when it was force-stopped; start a new run instead`);
        }
        const prompt = input.prompt?.trim() ? input.prompt : continuation(state);
        const resumed = await this.repository.decide(runId, { type: 'resume', prompt, resumedBy: callerActor(caller) }, { actor: callerActor(caller) });
        this.logger.log({ runId, epoch: resumed.epoch }, 'run resumed');
        const handle = this.executor.launch(resumed, prompt, 'resume');
        if (input.background) return toSummary(resumed);
        await handle.settled;
        return toSummary(await this.repository.get(runId));
      }
    }
  }

  private async place(input: StartRunInput, caller: RunCaller): Promise<Placement> {
    if (caller.kind === 'api') {
      if (!input.parentRunId) {
        return {
          parent: undefined,
          ownerThreadId: callerThread(caller),
          parentThreadId: null,
          callerAgentId: undefined,
          delegatingPolicy: undefined,
          depth: 0,
          refusalSessionId: undefined,
        };
      }
      const parent = await this.repository.get(input.parentRunId);
      // A child runs beside its parent: its budget, handles and stop cascade are that instance's.
      await holdRunSession(this.liveSessions, parent);
      this.assertCanParent(parent);
      return {
        parent,
        ownerThreadId: parent.started.threadId,
        parentThreadId: parent.started.threadId,
        callerAgentId: parent.started.agentId,
        delegatingPolicy: parent.started.policy,
        depth: parent.started.depth + 1,
        refusalSessionId: parent.started.threadId,
      };
    }
    const session = this.sessions.get(caller.sessionId);
    if (!session) throw new RunStateError(`Session ${caller.sessionId} does not exist`);
    const parentRunId = runIdOfThread(caller.sessionId);
    const parent = parentRunId ? await this.repository.load(parentRunId) : undefined;
    if (parent) this.assertCanParent(parent);
    const sessionAgent = session.config.agentId;
    return {
      parent,
      ownerThreadId: callerThread(caller),
      parentThreadId: caller.sessionId,
      callerAgentId: caller.agentName ?? parent?.started.agentId ?? sessionAgent,
      delegatingPolicy:
        parent?.started.policy ?? resolveRunPolicy(undefined, sessionAgent ? await this.library.find(sessionAgent) : undefined, this.config.runs),
      depth: parent ? parent.started.depth + 1 : 1,
      refusalSessionId: caller.sessionId,
    };
  }

  /**
   * The conversation a forked child starts with: the calling session's (the tool's caller, or over the
   * API the parent run's session), as recorded on its stream. A root run started over the API has none.
   */
  private async forkFrom(placement: Placement) {
    if (!placement.parentThreadId) {
      throw new InvalidRunArgumentsError('fork_context needs a conversation to fork: give parent_run_id (over the API) or call agent_run from a session');
    }
    // A page at a time, keeping only the messages: a long conversation is neither read whole on the loop nor held.
    const messages: StoredEvent[] = [];
    for await (const page of streamPages(this.store, sessionStreamId(placement.parentThreadId))) {
      messages.push(...page.filter((event) => FORK_TRANSCRIPT_TYPES.has(event.type)));
    }
    return forkTranscript(messages);
  }

  /** Depth is a limit on the whole tree: a child never gets a deeper limit than its parent had. */
  private childPolicy(policy: ResolvedRunPolicy, parent: RunState | undefined): ResolvedRunPolicy {
    return parent ? { ...policy, maxDepth: Math.min(policy.maxDepth, parent.started.policy.maxDepth) } : policy;
  }

  /** The session whose budget covers the new run's tree: the tree root's owner (none for the API). */
  private async treeOwner(placement: Placement): Promise<string | undefined> {
    if (!placement.parent) return placement.ownerThreadId;
    const { rootRunId, runId, ownerThreadId } = placement.parent.started;
    return rootRunId === runId ? ownerThreadId : (await this.repository.load(rootRunId))?.started.ownerThreadId;
  }

  /**
   * agent_run under a budget with nothing left is refused (budget_exceeded). Asking for a run past
   * max_runs passes that limit, so the budgeted subtree is also stopped.
   */
  private assertBudgetLeft(covering: CoveringBudget[], agentId: string): void {
    const spent = exhaustion(covering);
    if (!spent) return;
    const { runId, sessionId, ...breach } = spent;
    if (breach.limit === 'max_runs') this.budgets.runsLimitPassed({ runId, sessionId }, breach);
    const whose = runId ? `run ${runId}` : `session ${sessionId}`;
    this.logger.warn({ agentId, budgetRunId: runId, budgetSessionId: sessionId, ...breach }, 'run refused: budget exhausted');
    throw new BudgetExceededError(`Run of ${agentId} refused: the budget of ${whose} has nothing left (${describeBreach(breach)})`, {
      ...(runId ? { budgetRunId: runId } : { budgetSessionId: sessionId }),
      ...breach,
    });
  }

  private assertCanParent(parent: RunState): void {
    const stopping = this.handles.get(parent.started.runId)?.stopping;
    if (parent.status !== 'running' || stopping) {
      throw new RunStateError(`Run ${parent.started.runId} is ${stopping ? 'being stopped' : parent.status}; only a running run can start child runs`);
    }
  }

  /** A refused delegation is an event with its reason, then a policy_denied error for the caller. */
  private async refuse(placement: Placement, input: StartRunInput, caller: RunCaller, reason: string): Promise<never> {
    if (placement.refusalSessionId) {
      await this.store.appendMany([
        foreignSessionAppend(placement.refusalSessionId, [
          {
            type: RunEvents.delegationRefused,
            data: {
              agentId: input.agentId,
              callerAgentId: placement.callerAgentId ?? null,
              parentRunId: placement.parent?.started.runId ?? null,
              depth: placement.depth,
              reason,
            },
            metadata: { actor: callerActor(caller) },
          },
        ]),
      ]);
    }
    this.logger.warn({ agentId: input.agentId, callerAgentId: placement.callerAgentId, reason }, 'delegation refused');
    throw new PolicyDeniedError(`Delegation to ${input.agentId} refused: ${reason}`, { agentId: input.agentId, reason });
  }
}

function continuation(state: RunState): string {
  return `Your previous work on this task was interrupted before it finished. Continue where you left off and finish it.\n\nThe task: ${state.started.prompt}`;
}
