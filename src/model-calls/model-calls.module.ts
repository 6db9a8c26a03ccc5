import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ChildSessionsModule } from '../child-sessions/child-sessions.module';
import { CopilotCliModule } from '../copilot-cli/copilot-cli.module';
import { RunLineageModule } from '../run-lineage/run-lineage.module';
import { SessionsModule } from '../sessions/sessions.module';
import { ModelCallLineages } from './model-call-lineages';
import { ModelCallRecovery } from './model-call-recovery';
import { ModelCallsReadModel } from './model-calls-read-model';
import { ModelRoute } from './model-route';
import { ModelCallsProjection } from './projections/model-calls.projection';
import { ProviderTraffic } from './provider-traffic';

/**
 * issue 25: every model call of every agent goes through Switchboard (`ModelRoute`) and is kept as a
 * `model_call-<id>` stream with its lineage, usage and cost; `model_calls` is its read model. Other
 * contexts gate calls through the `@ProvidesModelCallGate()` slot (delegation's budgets).
 */
@Module({
  imports: [CopilotCliModule, SessionsModule, ChildSessionsModule, RunLineageModule, DiscoveryModule],
  providers: [ModelRoute, ModelCallLineages, ModelCallRecovery, ModelCallsReadModel, ModelCallsProjection, ProviderTraffic],
  exports: [ModelCallsReadModel, ProviderTraffic, ModelRoute],
})
export class ModelCallsModule {}
