import { Inject, Injectable, Logger } from '@nestjs/common';
import { AgentLibrary, type LibraryAgent } from '../../../agents/agent-library';
import { SWITCHBOARD_CONFIG } from '../../../config/config.module';
import type { SwitchboardConfig } from '../../../config/switchboard-config';
import { EventStore } from '../../../event-store/event-store';
import { runIdOfThread } from '../../../event-store/stream-ids';
import { RunsReadModel } from '../../../run-lineage/runs-read-model';
import { LiveSessionLookup } from '../../../sessions/live-session-lookup';
import { SessionRegistry } from '../../../sessions/session-registry';
import { assertBudgetAvailable, routeForBudget } from '../../../sessions/session-budget';
import { CopilotCliConnection } from '../../../copilot-cli/copilot-cli-connection';
import { foreignSessionAppend } from '../../../sessions/session-stream-appends';
import { BudgetGuard } from '../../budget-guard';
import { type CoveringBudget, describeBreach, exhaustion, narrowBudget, type RunBudget, toRunBudget } from '../../run-budget';
import type { RunState } from '../../run.decider';
import { BudgetExceededError, PolicyDeniedError, RunStateError } from '../../run.errors';
import { RunEvents } from '../../run.events';
import { callerActor, callerThread, type RunCaller } from '../../run-caller';
import { RunHandleTable } from '../../run-handle-table';
import { holdRunSession } from '../../run-holder';
import { delegationRefusal, type ResolvedRunPolicy, resolveRunPolicy } from '../../run-policy';
import { RunRepository } from '../../run-repository';
import type { StartRunInput } from './start-run.command';

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
}

/**
 * The checks a run passes before it is recorded, each a step of StartRun: where it attaches
 * (placement), whether the delegating agent's policy allows it (a refusal is recorded, then 403
 * policy_denied), and whether a covering budget has anything left (budget_exceeded).
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

  async place(input: StartRunInput, caller: RunCaller): Promise<Placement> {
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

  /** The delegating agent's policy (none for a root run over the API); a refusal is recorded, then thrown. */
  async assertDelegationAllowed(placement: Placement, input: StartRunInput & { agentId: string }, caller: RunCaller): Promise<void> {
    if (!placement.delegatingPolicy) return;
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

  /** The new run's budget, narrowed by every budget covering its tree; refused when one has nothing left. */
  async budgetFor(placement: Placement, input: StartRunInput & { agentId: string }): Promise<RunBudget | undefined> {
    // A cost limit this service cannot keep is refused before anything is read or recorded (422).
    const budget = toRunBudget(input.budget);
    assertBudgetAvailable(budget, this.config.modelCalls.prices, await routeForBudget(budget, this.cli));
    const covering = await this.budgets.covering(placement.parent?.started.path, await this.treeOwner(placement));
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
  runPolicy(input: StartRunInput, agent: LibraryAgent, parent: RunState | undefined): ResolvedRunPolicy {
    return this.childPolicy(resolveRunPolicy(input.policy, agent, this.config.runs), parent);
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
