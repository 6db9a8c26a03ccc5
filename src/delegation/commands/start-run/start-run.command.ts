import { Command } from '@nestjs/cqrs';
import type { RunCaller, RunSummary } from '../../run-caller';
import type { RunBudgetInput } from '../../run-budget';
import type { RunPolicyInput } from '../../run-policy';
import type { RunReplay, RunScheduledBy, RunSessionSettings } from '../../run.events';

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
  /** issue 26, internal (ReplayRun / ForkRun only, never from a request body): the new root run plays this original back. */
  replay?: RunReplay;
  /**
   * issue 30, internal (the scheduler only, never from a request body): the id the new run gets. A second
   * start of the same id is refused by the run decider, so a firing completed twice never doubles its run.
   */
  newRunId?: string;
  /** issue 30, internal: the schedule firing that starts this run (recorded on `run.started` as `scheduledBy`). */
  schedule?: RunScheduledBy;
  /** issue 30, internal: a root run's CLI session settings (the schedule's model and permission policy). */
  session?: RunSessionSettings;
}

/** spec: agent_run (the tool keeps its name). Start a child run, or resume / check one by run_id. */
export class StartRun extends Command<RunSummary> {
  constructor(
    readonly input: StartRunInput,
    readonly caller: RunCaller,
  ) {
    super();
  }
}
