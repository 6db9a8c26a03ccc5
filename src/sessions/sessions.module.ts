import { WorkspaceCheckpoints } from './workspace-checkpoints';
import { WorkspacesModule } from '../workspaces';
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AgentsModule } from '../agents';
import { AbortSessionHandler } from './commands/abort-session/abort-session.handler';
import { ChangeSubAgentsHandler } from './commands/change-sub-agents/change-sub-agents.handler';
import { BuiltinToolCatalog } from './builtin-tool-catalog';
import { CreateSessionHandler } from './commands/create-session/create-session.handler';
import { DestroySessionHandler } from './commands/destroy-session/destroy-session.handler';
import { ResumeSessionHandler } from './commands/resume-session/resume-session.handler';
import { SendMessageHandler } from './commands/send-message/send-message.handler';
import { StopTurnHandler } from './commands/stop-turn/stop-turn.handler';
import { SteerSessionHandler } from './commands/steer-session/steer-session.handler';
import { SessionsProjection } from './projections/sessions.projection';
import { HeldWork } from './held-work';
import { ListThreadSubagentsHandler } from './queries/list-thread-subagents/list-thread-subagents.handler';
import { SessionsReadModel } from './sessions-read-model';
import { SubagentLaunchesReadModel } from './subagent-launches-read-model';
import { GetSessionHandler } from './queries/get-session/get-session.handler';
import { ListSessionsHandler } from './queries/list-sessions/list-sessions.handler';
import { SessionEndpointPolicy } from './session-endpoint-policy';
import { LiveSessionLimit } from './live-session-limit';
import { LiveSessionStarter } from './live-session-starter';
import { SessionLifecycle } from './session-lifecycle';
import { LiveSessionLookup } from './live-session-lookup';
import { SessionRegistry } from './session-registry';
import { SessionsController } from './sessions.controller';
import { SessionOptionsController } from './session-options.controller';
import { GetSessionOptionsHandler } from './queries/get-session-options/get-session-options.handler';
import { TurnReminders } from './turn-reminders';
import { SessionsResolver } from './graphql/sessions.resolver';
import { SessionsAccess } from './sessions.access';
import { SessionMetrics } from './session-metrics';

/** Copilot sessions: create, message, resume, destroy; their event streams; recovery after CLI or service restarts. */
@Module({
  imports: [AgentsModule, DiscoveryModule, WorkspacesModule],
  controllers: [SessionsController, SessionOptionsController],
  providers: [
    SessionMetrics,
    WorkspaceCheckpoints,
    SessionsAccess,
    SessionsResolver,
    SessionRegistry,
    SessionsReadModel,
    SubagentLaunchesReadModel,
    HeldWork,
    SessionEndpointPolicy,
    LiveSessionLookup,
    LiveSessionLimit,
    LiveSessionStarter,
    BuiltinToolCatalog,
    TurnReminders,
    SessionLifecycle,
    SessionsProjection,
    CreateSessionHandler,
    SendMessageHandler,
    ResumeSessionHandler,
    DestroySessionHandler,
    AbortSessionHandler,
    StopTurnHandler,
    SteerSessionHandler,
    ChangeSubAgentsHandler,
    GetSessionHandler,
    ListSessionsHandler,
    ListThreadSubagentsHandler,
    GetSessionOptionsHandler,
  ],
  exports: [SessionRegistry, SessionsReadModel, SubagentLaunchesReadModel, HeldWork, LiveSessionLookup, BuiltinToolCatalog, TurnReminders],
})
export class SessionsModule {}
