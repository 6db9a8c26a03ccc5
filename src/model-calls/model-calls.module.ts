import { PausesModule } from '../pauses';
import { ModelCallStepAttribution } from './model-call-step-attribution';
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ChildSessionsModule } from '../child-sessions';
import { CopilotCliModule } from '../copilot-cli';
import { RunLineageModule } from '../run-lineage';
import { SessionsModule } from '../sessions';
import { ModelCallLineages } from './model-call-lineages';
import { ModelCallsController } from './model-calls.controller';
import { GetModelCallHandler } from './queries/get-model-call/get-model-call.handler';
import { GetModelCallBodiesHandler } from './queries/get-model-call-bodies/get-model-call-bodies.handler';
import { GetModelCallSpendHandler } from './queries/get-model-call-spend/get-model-call-spend.handler';
import { GetModelRouteHandler } from './queries/get-model-route/get-model-route.handler';
import { ListModelCallsOfRunsHandler } from './queries/list-model-calls-of-runs/list-model-calls-of-runs.handler';
import { ListRunModelCallsHandler } from './queries/list-run-model-calls/list-run-model-calls.handler';
import { ListSessionModelCallsHandler } from './queries/list-session-model-calls/list-session-model-calls.handler';
import { ModelCallRecovery } from './model-call-recovery';
import { ModelCallsReadModel } from './model-calls-read-model';
import { ModelCallForwarding } from './model-call-forwarding';
import { ModelCallGates } from './model-call-gates';
import { ModelCallRecorder } from './model-call-recording';
import { ModelRoute } from './model-route';
import { ModelCallsProjection } from './projections/model-calls.projection';
import { ProviderTraffic } from './provider-traffic';
import { ReplayPlanner } from './replay/replay-planner';
import { ModelCallsResolver, SessionModelCallsResolver, RunModelCallsResolver } from './graphql/model-calls.resolver';
import { ModelCallsAccess } from './model-calls.access';
import { ModelCallMetrics } from './model-call-metrics';

/**
 * issue 25: every model call of every agent goes through Switchboard (`ModelRoute`) and is kept as a
 * `model_call-<id>` stream with its lineage, usage and cost; `model_calls` is its read model, read over
 * REST (`ModelCallsController`) and GraphQL through the queries here. Other contexts gate calls through
 * the `@ProvidesModelCallGate()` slot (delegation's budgets).
 */
@Module({
  imports: [CopilotCliModule, SessionsModule, ChildSessionsModule, RunLineageModule, PausesModule, DiscoveryModule],
  controllers: [ModelCallsController],
  providers: [
    ModelCallMetrics,
    ModelCallStepAttribution,
    ModelCallsAccess,
    ModelCallsResolver,
    SessionModelCallsResolver,
    RunModelCallsResolver,
    ModelRoute,
    ModelCallForwarding,
    ModelCallRecorder,
    ModelCallGates,
    ModelCallLineages,
    ModelCallRecovery,
    ModelCallsReadModel,
    ModelCallsProjection,
    ProviderTraffic,
    ReplayPlanner,
    ListSessionModelCallsHandler,
    ListRunModelCallsHandler,
    ListModelCallsOfRunsHandler,
    GetModelCallHandler,
    GetModelCallBodiesHandler,
    GetModelCallSpendHandler,
    GetModelRouteHandler,
  ],
  exports: [ModelCallsReadModel, ProviderTraffic, ModelRoute],
})
export class ModelCallsModule {}
