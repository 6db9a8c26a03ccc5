import { DynamicModule, Module, OnModuleDestroy } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { LoggerModule } from 'nestjs-pino';
import { DomainErrorFilter } from './common';
import { AgentsModule } from './agents';
import { ChildSessionsModule } from './child-sessions';
import { ConfigModule, loadConfig, type SwitchboardConfig } from './config';
import { CopilotCliModule } from './copilot-cli';
import { DatabaseModule } from './database';
import { DelegationModule } from './delegation';
import { EventLogModule } from './event-log';
import { EventStoreModule } from './event-store';
import { GraphqlApiModule } from './graphql-api';
import { McpApiModule } from './mcp-api';
import { A2aApiModule } from './a2a-api';
import { LifecycleModule, ServiceStopping } from './lifecycle';
import { IdentityGuard, IdentityModule, SignInModule } from './identity';
import { HealthModule } from './health';
import { InstancesModule } from './instances';
import { MetricsModule } from './metrics';
import { ModelCallsModule } from './model-calls';
import { OutboundModule } from './outbound';
import { PausesModule } from './pauses';
import { WorkspacesModule } from './workspaces';
import { ProjectionsModule } from './projections';
import { RunLineageModule } from './run-lineage';
import { SchedulesModule } from './schedules';
import { ApprovalsModule } from './approvals';
import { SessionsModule } from './sessions';
import { ToolDispatchModule } from './tool-dispatch';
import { TracesModule } from './traces';

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
        WorkspacesModule,
        ModelCallsModule,
        DelegationModule,
        RunLineageModule,
        SchedulesModule,
        GraphqlApiModule,
        McpApiModule,
        A2aApiModule,
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
