import { Inject, Injectable, Logger } from '@nestjs/common';
import { AgentLibrary, type LibraryAgent } from '../../../agents';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../../config';
import { EventStore, type StoredEvent, runIdOfThread, sessionStreamId, streamPages } from '../../../event-store';
import { RunsReadModel } from '../../../run-lineage';
import { LiveSessionLookup, SessionRegistry, assertBudgetAvailable, routeForBudget, foreignSessionAppend } from '../../../sessions';
import { CopilotCliConnection } from '../../../copilot-cli';
import { BudgetGuard } from '../../budget-guard';
import { type CoveringBudget, describeBreach, exhaustion, narrowBudget, type RunBudget, toRunBudget } from '../../run-budget';
import type { RunState } from '../../run.decider';
import { BudgetExceededError, InvalidRunArgumentsError, PolicyDeniedError, RunStateError, UnknownAgentError } from '../../run.errors';
import { type RunReplay, RunEvents } from '../../run.events';
import { FORK_TRANSCRIPT_TYPES, type ForkedTranscript, forkTranscript } from '../../fork-context';
import { callerActor, callerThread, type RunCaller } from '../../run-caller';
import { RunHandleTable } from '../../run-handle-table';
import { holdRunSession } from '../../run-holder';
import { delegationRefusal, type ResolvedRunPolicy, resolveRunPolicy } from '../../run-policy';
import { RunRepository } from '../../run-repository';
import type { RunOrigin, ScheduledStart, StartRunInput } from './start-run.command';

/** Where a new run attaches: its parent run (if any), the thread that owns it, and the policy it is checked against. */
export interface Placement {
  parent: RunState | undefined;
  ownerThreadId: string;
  parentThreadId: string | null;
  callerAgentId: string | undefined;
  /** undefined: a root run started over the API, which no delegating agent's policy governs. */
  delegatingPolicy: ResolvedRunPolicy | undefined;
  depth: number;
  /** The session a refusal is recorded on. */
  refusalSessionId: string | undefined;
  /** The session whose budget covers the new run's tree: the tree root's owner (none for the API). */
  treeOwner: string | undefined;
}

/** A start as admission let it through: everything the run's `run.started` needs from other contexts, gathered once. */
export interface AdmittedRun {
  agent: LibraryAgent;
  placement: Placement;
  policy: ResolvedRunPolicy;
  budget?: RunBudget;
  /** The calling conversation the child starts with (`forkContext`). */
  fork?: ForkedTranscript;
  replay?: RunReplay;
  scheduled?: ScheduledStart;
}

/**
 * The checks a run passes before it is recorded, in one pass that asks each context once (`admit`):
 * the agent library (the agent), sessions and the run streams (where it attaches: placement, its tree's
 * owner), the runs read model (running siblings, a replay tree's children), the budgets; refused in this
 * order: an unknown agent, an internal start outside a root run over the API, placement, the delegating
 * agent's policy (a refusal is recorded, then 403 policy_denied), the covering budgets (budget_exceeded),
 * a fork without a conversation.
 */
@Injectable()
export class RunAdmission {
  private readonly logger = new Logger(RunAdmission.name);

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly repository: RunRepository,
    private readonly handles: RunHandleTable,
    private readonly library: AgentLibrary,
    private readonly sessions: SessionRegistry,
    private readonly runs: RunsReadModel,
    private readonly store: EventStore,
    private readonly budgets: BudgetGuard,
    private readonly liveSessions: LiveSessionLookup,
    private readonly cli: CopilotCliConnection,
  ) {}

  /** Everything a new run needs from the other contexts, each asked once, or the first refusal. */
  async admit(input: StartRunInput & { agentId: string }, caller: RunCaller, origin: RunOrigin | undefined): Promise<AdmittedRun> {
    const agent = await this.library.find(input.agentId);
    if (!agent) throw new UnknownAgentError(input.agentId);
    if (agent.remote && input.workspace) {
      throw new InvalidRunArgumentsError(`${agent.id} runs on its remote service, which keeps its own files; leave workspace out`);
    }
    if (origin?.scheduled && (caller.kind !== 'api' || input.parentRunId)) {
      throw new InvalidRunArgumentsError('session settings and a schedule apply to a root run started by Switchboard itself');
    }
    const placement = await this.place(input, caller);
    const parent = placement.parent?.started;
    // The runs read model, asked once: the owner's running children (for the policy) and, inside a replay
    // tree, the n-th child of this agent of the parent and of the parent's original (for the replay).
    const parentOriginal = parent?.replay?.of;
    const [runningChildren, replayChildren] = await Promise.all([
      placement.delegatingPolicy ? this.runs.runningOwnedBy(placement.ownerThreadId) : undefined,
      parent && parentOriginal
        ? Promise.all([this.runs.childrenOfAgent(parent.runId, input.agentId), this.runs.childrenOfAgent(parentOriginal, input.agentId)])
        : undefined,
    ]);
    if (placement.delegatingPolicy && runningChildren !== undefined) {
      await this.assertDelegationAllowed(placement, placement.delegatingPolicy, runningChildren, input, caller);
    }
    const budget = await this.budgetFor(placement, input);
    const fork = input.forkContext ? await this.forkFrom(placement) : undefined;
    return {
      agent,
      placement,
      policy: this.runPolicy(input, agent, placement.parent),
      ...(budget ? { budget } : {}),
      ...(fork ? { fork } : {}),
      ...withReplay(origin?.replay ?? replayOfChild(parent?.replay, replayChildren)),
      ...(origin?.scheduled ? { scheduled: origin.scheduled } : {}),
    };
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
          treeOwner: callerThread(caller),
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
        treeOwner: await this.treeOwnerUnder(parent),
      };
    }
    const session = this.sessions.get(caller.sessionId);
    if (!session) throw new RunStateError(`Session ${caller.sessionId} does not exist`);
    const parentRunId = runIdOfThread(caller.sessionId);
    const parent = parentRunId ? await this.repository.load(parentRunId) : undefined;
    if (parent) this.assertCanParent(parent);
    const sessionAgent = session.config.agentId;
    const [sessionAgentDefinition, treeOwner] = await Promise.all([
      !parent && sessionAgent ? this.library.find(sessionAgent) : undefined,
      parent ? this.treeOwnerUnder(parent) : callerThread(caller),
    ]);
    return {
      parent,
      ownerThreadId: callerThread(caller),
      parentThreadId: caller.sessionId,
      callerAgentId: caller.agentName ?? parent?.started.agentId ?? sessionAgent,
      delegatingPolicy: parent?.started.policy ?? resolveRunPolicy(undefined, sessionAgentDefinition, this.config.runs),
      depth: parent ? parent.started.depth + 1 : 1,
      refusalSessionId: caller.sessionId,
      treeOwner,
    };
  }

  /** The delegating agent's policy (none for a root run over the API); a refusal is recorded, then thrown. */
  private async assertDelegationAllowed(
    placement: Placement,
    policy: ResolvedRunPolicy,
    runningChildren: number,
    input: StartRunInput & { agentId: string },
    caller: RunCaller,
  ): Promise<void> {
    // Not atomic with the run.started append further down (awaits lie between, as they did when this read
    // was synchronous): two agent_run calls of one thread at the same moment can both pass the limit.
    const refusal = delegationRefusal(policy, {
      targetAgentId: input.agentId,
      callerAgentId: placement.callerAgentId,
      depth: placement.depth,
      runningChildren,
    });
    if (refusal) await this.refuse(placement, input, caller, refusal);
  }

  /** The new run's budget, narrowed by every budget covering its tree; refused when one has nothing left. */
  private async budgetFor(placement: Placement, input: StartRunInput & { agentId: string }): Promise<RunBudget | undefined> {
    // A cost limit this service cannot keep is refused before anything is read or recorded (422).
    const budget = toRunBudget(input.budget);
    assertBudgetAvailable(budget, this.config.modelCalls.prices, await routeForBudget(budget, this.cli));
    const covering = await this.budgets.covering(placement.parent?.started.path, placement.treeOwner);
    this.assertBudgetLeft(covering, input.agentId);
    return narrowBudget(toRunBudget(input.budget), covering);
  }

  /** A resumed run adds no run: only the other limits of the budgets covering it can refuse it. */
  async assertResumeBudgetLeft(state: RunState): Promise<void> {
    const owner = state.started.parentRunId ? (await this.repository.load(state.started.rootRunId))?.started.ownerThreadId : state.started.ownerThreadId;
    const covering = (await this.budgets.covering(state.started.path, owner)).map(({ budget: { max_runs: _runs, ...rest }, ...c }) => ({
      ...c,
      budget: rest,
    }));
    this.assertBudgetLeft(covering, state.started.agentId);
  }

  /** Depth is a limit on the whole tree: a child never gets a deeper limit than its parent had. */
  private childPolicy(policy: ResolvedRunPolicy, parent: RunState | undefined): ResolvedRunPolicy {
    return parent ? { ...policy, maxDepth: Math.min(policy.maxDepth, parent.started.policy.maxDepth) } : policy;
  }

  /** The policy a run of `agent` starts with: the request's, the agent's, the defaults; capped by its parent's depth. */
  private runPolicy(input: StartRunInput, agent: LibraryAgent, parent: RunState | undefined): ResolvedRunPolicy {
    return this.childPolicy(resolveRunPolicy(input.policy, agent, this.config.runs), parent);
  }

  /** The session whose budget covers a tree under `parent`: its root's owner. */
  private async treeOwnerUnder(parent: RunState): Promise<string | undefined> {
    const { rootRunId, runId, ownerThreadId } = parent.started;
    return rootRunId === runId ? ownerThreadId : (await this.repository.load(rootRunId))?.started.ownerThreadId;
  }

  /**
   * The conversation a forked child starts with: the calling session's (the tool's caller, or over the
   * API the parent run's session), as recorded on its stream. A root run started over the API has none.
   */
  private async forkFrom(placement: Placement): Promise<ForkedTranscript> {
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
  private async refuse(placement: Placement, input: StartRunInput & { agentId: string }, caller: RunCaller, reason: string): Promise<never> {
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

/**
 * issue 26: a child started inside a replay tree inherits its settings and plays back the original
 * parent's child of the same agent and ordinal (the n-th run of that agent the parent started); none:
 * `of` is absent and the child goes live.
 */
function replayOfChild(parentReplay: RunReplay | undefined, children: [readonly string[], readonly string[]] | undefined): RunReplay | undefined {
  if (!parentReplay) return undefined;
  const { of: _parentOriginal, ...inherited } = parentReplay;
  if (!children) return inherited;
  const [mine, originals] = children;
  const original = originals[mine.length];
  return original ? { ...inherited, of: original } : inherited;
}

const withReplay = (replay: RunReplay | undefined): { replay?: RunReplay } => (replay ? { replay } : {});
