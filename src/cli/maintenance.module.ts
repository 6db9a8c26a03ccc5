import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ConfigModule, type SwitchboardConfig } from '../config';
import { DatabaseModule } from '../database';
import { EventLogModule } from '../event-log';
import { EventStoreModule } from '../event-store';
import { ProjectionsModule } from '../projections';
import { AgentsModule } from '../agents';
import { ChildSessionsProjection } from '../child-sessions';
import { SessionsProjection } from '../sessions';
import { RoutedRequestsProjection } from '../tool-dispatch';
import { RunsProjection } from '../delegation';
import { ApprovalsProjection } from '../approvals';
import { TraceSpansProjection } from '../traces';
import { ApiKeysReadModel, CreateApiKeyHandler, ApiKeysProjection } from '../identity';

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
