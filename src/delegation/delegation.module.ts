import { RunWorkspaceSummary } from './run-workspace-summary';
import { WorkspacesModule } from '../workspaces';
import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents';
import { ModelCallsModule } from '../model-calls';
import { PausesModule } from '../pauses';
import { RunLineageModule } from '../run-lineage';
import { SessionsModule } from '../sessions';
import { RunAdmission } from './commands/start-run/run-admission';
import { StartRunHandler } from './commands/start-run/start-run.handler';
import { BudgetGuard } from './budget-guard';
import { BudgetModelGate } from './budget-model-gate';
import { BudgetSpend } from './budget-spend';
import { BudgetReminders } from './budget-reminders';
import { StopRunHandler } from './commands/stop-run/stop-run.handler';
import { SteerRunHandler } from './commands/steer-run/steer-run.handler';
import { ForkRunHandler } from './commands/fork-run/fork-run.handler';
import { ReplayRunHandler } from './commands/replay-run/replay-run.handler';
import { ReplayDivergenceStop } from './replay-divergence-stop';
import { TurnStopCascade } from './turn-stop-cascade';
import { ReplayOrigin } from './replay-origin';
import { DelegationTools } from './delegation-tools';
import { RunsProjection } from './projections/runs.projection';
import { GetRunHandler } from './queries/get-run/get-run.handler';
import { GetRunReplayHandler } from './queries/get-run-replay/get-run-replay.handler';
import { GetRunTreeHandler } from './queries/get-run-tree/get-run-tree.handler';
import { GetRunOutputHandler } from './queries/get-run-output/get-run-output.handler';
import { WatchRunEventsHandler } from './queries/watch-run-events/watch-run-events.handler';
import { RunExecutor } from './run-executor';
import { RemoteAgentClients } from './remote-runs/remote-agent-client';
import { RemoteRunLauncher } from './remote-runs/remote-run-launcher';
import { HeldRuns } from './held-runs';
import { RunHandleTable } from './run-handle-table';
import { RunRecovery } from './run-recovery';
import { RunReminders } from './run-reminders';
import { RunRepository } from './run-repository';
import { RunStopper } from './run-stopper';
import { RunsController } from './runs.controller';
import { GetSessionBudgetHandler } from './queries/get-session-budget/get-session-budget.handler';
import { SessionBudgetController } from './session-budget.controller';
import { RunsResolver, RunUsageResolver, UsageCostResolver } from './graphql/runs.resolver';
import { RunCommandsResolver } from './graphql/run-commands.resolver';
import { RunReplaysResolver } from './graphql/run-replays.resolver';
import { SteeringResolver } from './graphql/steering.resolver';
import { SessionSummaryRunResolver, SessionRunResolver } from './graphql/session-runs.resolver';
import { DelegationAccess } from './delegation.access';
import { RunMetrics } from './run-metrics';
import { RunMcpTools } from './mcp/run-tools';

/**
 * spec: sub-agent-delegation. Runs as `run-<id>` streams (pure decider), each executing on its own CLI
 * session; agent_run / agent_stop / agent_output as commands, built-in tools and REST; stop cascades
 * over the lineage path; recovery marks cut-off runs interrupted; budgets over subtrees, which also refuse
 * a model call before it is sent once spent (BudgetModelGate, a model-call gate).
 */
@Module({
  imports: [AgentsModule, SessionsModule, RunLineageModule, ModelCallsModule, PausesModule, WorkspacesModule],
  controllers: [RunsController, SessionBudgetController],
  providers: [
    RunMcpTools,
    RunMetrics,
    RunWorkspaceSummary,
    DelegationAccess,
    RunsResolver,
    RunUsageResolver,
    UsageCostResolver,
    RunCommandsResolver,
    RunReplaysResolver,
    SteeringResolver,
    SessionSummaryRunResolver,
    SessionRunResolver,
    RunHandleTable,
    RunRepository,
    RunExecutor,
    RemoteAgentClients,
    RemoteRunLauncher,
    RunStopper,
    RunRecovery,
    HeldRuns,
    RunReminders,
    BudgetGuard,
    BudgetModelGate,
    BudgetSpend,
    BudgetReminders,
    RunsProjection,
    DelegationTools,
    RunAdmission,
    StartRunHandler,
    StopRunHandler,
    SteerRunHandler,
    ReplayOrigin,
    ReplayRunHandler,
    ForkRunHandler,
    ReplayDivergenceStop,
    TurnStopCascade,
    GetRunOutputHandler,
    GetRunHandler,
    GetSessionBudgetHandler,
    GetRunTreeHandler,
    GetRunReplayHandler,
    WatchRunEventsHandler,
  ],
  exports: [RunRepository, RunHandleTable],
})
export class DelegationModule {}
