import { Command } from '@nestjs/cqrs';
import type { RunCaller, RunSummary } from '../../run-caller';
import type { RunBudgetInput } from '../../run-budget';
import type { RunPolicyInput } from '../../run-policy';
import type { ForkedTranscript } from '../../fork-context';
import type { RunReplay, RunScheduledBy, RunSessionSettings, RunWorkspaceRequest } from '../../run.events';

/** What a caller may ask of agent_run, over the API or as a tool: nothing here is internal to Switchboard. */
export interface StartRunInput {
  /** Start: the agent to run and its prompt. */
  agentId?: string;
  prompt?: string;
  /** Resume (interrupted or stopped) or inspect (any other status) an existing run. */
  runId?: string;
  /** false: wait for the run to end; true: answer at once with its summary. */
  background: boolean;
  /** API only: attach the new run under this run (the tools take it from the calling thread). */
  parentRunId?: string;
  /** API only: the run's own policy; unset fields come from its agent definition, then the defaults. */
  policy?: RunPolicyInput;
  /** Start only: the child's first prompt begins with the caller session's conversation (bounded, see fork-context.ts). */
  forkContext?: boolean;
  /** Start only: a budget over the new run's subtree, narrowed by what its ancestors' budgets have left. */
  budget?: RunBudgetInput;
  /** API only, start only (issue 42): the run's git worktree, from this repository instead of its parent's working state. */
  workspace?: RunWorkspaceRequest;
}

/** A scheduled start (issue 30): the firing's run id, the firing, and the root run's CLI session settings. */
export interface ScheduledStart {
  /** The id the new run gets: a second start of the same id is refused by the run decider, so a firing completed twice never doubles its run. */
  newRunId: string;
  /** Recorded on `run.started` as `scheduledBy`. */
  schedule: RunScheduledBy;
  /** The schedule's model and permission policy. */
  session: RunSessionSettings;
}

/** issue 43: a task an A2A client asked for: its context, and that context's earlier messages the run begins with. */
export interface A2aStart {
  contextId: string;
  /** The context's earlier tasks (each prompt and output, bounded), oldest first; empty for a new context. */
  earlier: ForkedTranscript;
}

/**
 * Where a start comes from when Switchboard itself starts it: a replay or fork of a recorded run
 * (issue 26), a schedule's firing (issue 30), or an A2A task (issue 43, its context gathered by the A2A
 * face from the record). Built only by its factories, never from a request body (a parsed body is a plain
 * object, not a RunOrigin); a request's start has none.
 */
export class RunOrigin {
  private constructor(
    readonly replay?: RunReplay,
    readonly scheduled?: ScheduledStart,
    readonly a2a?: A2aStart,
  ) {}

  /** ReplayRun / ForkRun: the new root run plays this original back. */
  static replaying(replay: RunReplay): RunOrigin {
    return new RunOrigin(replay, undefined);
  }

  /** The scheduler: the firing's run. */
  static scheduled(start: ScheduledStart): RunOrigin {
    return new RunOrigin(undefined, start);
  }

  /** The A2A server: a task of this context. */
  static a2aTask(start: A2aStart): RunOrigin {
    return new RunOrigin(undefined, undefined, start);
  }
}

/** spec: agent_run (the tool keeps its name). Start a child run, or resume / check one by run_id. */
export class StartRun extends Command<RunSummary> {
  constructor(
    readonly input: StartRunInput,
    readonly caller: RunCaller,
    /** Set only by Switchboard's own starts (replay, fork, schedule). */
    readonly origin?: RunOrigin,
  ) {
    super();
  }
}
