import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ConfigModule } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { DatabaseModule } from '../database/database.module';
import { EventLogModule } from '../event-log/event-log.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ProjectionsModule } from '../projections/projections.module';
import { AgentsModule } from '../agents/agents.module';
import { ChildSessionsProjection } from '../child-sessions/projections/child-sessions.projection';
import { SessionsProjection } from '../sessions/projections/sessions.projection';
import { RoutedRequestsProjection } from '../tool-dispatch/projections/routed-requests.projection';
import { RunsProjection } from '../delegation/projections/runs.projection';
import { ApprovalsProjection } from '../approvals/projections/approvals.projection';
import { TraceSpansProjection } from '../traces/projections/trace-spans.projection';
import { ApiKeysReadModel } from '../identity/keys/api-keys-read-model';
import { CreateApiKeyHandler } from '../identity/keys/commands/create-api-key/create-api-key.command';
import { ApiKeysProjection } from '../identity/keys/projections/api-keys.projection';

/** What the maintenance commands need: the store and every projection, but no HTTP and no runner. */
@Module({})
export class MaintenanceModule {
  static forRoot(config: SwitchboardConfig): DynamicModule {
    return {
      module: MaintenanceModule,
      imports: [
        ConfigModule.forRoot(config),
        CqrsModule.forRoot(),
        DatabaseModule.forRoot(config),
        EventStoreModule.forRoot(config),
        EventLogModule,
        ProjectionsModule.forMaintenance(config),
        AgentsModule,
      ],
      // The read models of the session contexts, without their CLI-facing services; on PostgreSQL a
      // rebuild replays through their set-based forms, which come with them.
      // The spans (issue 28) only where traces are on: a rebuild sends every span again.
      providers: [
        SessionsProjection,
        ChildSessionsProjection,
        RoutedRequestsProjection,
        RunsProjection,
        ApprovalsProjection,
        ...(config.traces.enabled ? [TraceSpansProjection] : []),
        // keys:create-admin (issue 39): the keys' read model, written inline as the service writes it.
        ApiKeysProjection,
        ApiKeysReadModel,
        CreateApiKeyHandler,
      ],
    };
  }
}
