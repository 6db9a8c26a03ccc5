import { DynamicModule, Module, OnModuleDestroy } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { LoggerModule } from 'nestjs-pino';
import { DomainErrorFilter } from './common/domain-error.filter';
import { AgentsModule } from './agents/agents.module';
import { ChildSessionsModule } from './child-sessions/child-sessions.module';
import { ConfigModule } from './config/config.module';
import { CopilotCliModule } from './copilot-cli/copilot-cli.module';
import { loadConfig, type SwitchboardConfig } from './config/switchboard-config';
import { DatabaseModule } from './database/database.module';
import { DelegationModule } from './delegation/delegation.module';
import { EventLogModule } from './event-log/event-log.module';
import { EventStoreModule } from './event-store/event-store.module';
import { GraphqlApiModule } from './graphql-api/graphql-api.module';
import { LifecycleModule } from './lifecycle/lifecycle.module';
import { ServiceStopping } from './lifecycle/service-stopping';
import { IdentityGuard } from './identity/identity.guard';
import { IdentityModule } from './identity/identity.module';
import { SignInModule } from './identity/sign-in/sign-in.module';
import { HealthModule } from './health/health.module';
import { InstancesModule } from './instances/instances.module';
import { MetricsModule } from './metrics/metrics.module';
import { ModelCallsModule } from './model-calls/model-calls.module';
import { OutboundModule } from './outbound/outbound.module';
import { PausesModule } from './pauses/pauses.module';
import { ProjectionsModule } from './projections/projections.module';
import { RunLineageModule } from './run-lineage/run-lineage.module';
import { SchedulesModule } from './schedules/schedules.module';
import { ApprovalsModule } from './approvals/approvals.module';
import { SessionsModule } from './sessions/sessions.module';
import { ToolDispatchModule } from './tool-dispatch/tool-dispatch.module';
import { TracesModule } from './traces/traces.module';

@Module({})
export class AppModule implements OnModuleDestroy {
  constructor(private readonly serviceStopping: ServiceStopping) {}

  /** The first destroy hook Nest runs (the root module's): open streams end before any drain. */
  onModuleDestroy(): void {
    this.serviceStopping.begin();
  }

  /** The whole service for a configuration (SQLite, or PostgreSQL with SWITCHBOARD_DATABASE_URL); tests pass theirs (own database, own token). */
  static forRoot(config: SwitchboardConfig = loadConfig()): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            redact: ['req.headers.authorization'],
            // Probes and scrapes would drown the request log.
            autoLogging: { ignore: (req) => req.url === '/health' || req.url === '/metrics' },
          },
        }),
        CqrsModule.forRoot(),
        LifecycleModule,
        DatabaseModule.forRoot(config),
        EventStoreModule.forRoot(config),
        InstancesModule,
        ProjectionsModule.forServer(config),
        IdentityModule,
        EventLogModule,
        HealthModule,
        CopilotCliModule,
        OutboundModule,
        AgentsModule,
        SessionsModule,
        ChildSessionsModule,
        ToolDispatchModule,
        ApprovalsModule,
        PausesModule,
        ModelCallsModule,
        DelegationModule,
        RunLineageModule,
        SchedulesModule,
        GraphqlApiModule,
        MetricsModule,
        SignInModule,
        TracesModule.forRoot(config),
      ],
      providers: [
        { provide: APP_GUARD, useClass: IdentityGuard },
        { provide: APP_FILTER, useClass: DomainErrorFilter },
      ],
    };
  }
}
