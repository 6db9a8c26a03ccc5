import { Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals';
import { ChildSessionsModule } from '../child-sessions';
import { PausesModule } from '../pauses';
import { RunLineageModule } from '../run-lineage';
import { SessionsModule } from '../sessions';
import { AnswerUserInputHandler } from './commands/answer-user-input/answer-user-input.handler';
import { ListPendingUserInputHandler } from './queries/list-pending-user-input/list-pending-user-input.handler';
import { RoutedRequestsProjection } from './projections/routed-requests.projection';
import { ListRoutedRequestsHandler } from './queries/list-routed-requests/list-routed-requests.handler';
import { ListThreadRequestsHandler } from './queries/list-thread-requests/list-thread-requests.handler';
import { RequestAuditLog } from './request-audit';
import { ReplayedToolResults } from './replayed-tool-results';
import { RequestRouter } from './request-router';
import { SessionRequestsController } from './session-requests.controller';
import { ToolInvoker } from './tool-invoker';
import { UserInputBroker } from './user-input-broker';
import { WebhookToolHandler } from './webhook-tool-handler';
import { SignedWebhook } from './signed-webhook';
import { HookDispatcher } from './hook-dispatcher';
import { UserInputResolver } from './graphql/user-input.resolver';
import { RunRequestsResolver } from './graphql/run-requests.resolver';
import { ToolDispatchAccess } from './tool-dispatch.access';
import { RoutedRequestMetrics } from './routed-request-metrics';

/** Answers what the CLI asks of the client: tool calls, permissions, hooks, user input; audits each. */
@Module({
  imports: [SessionsModule, ChildSessionsModule, ApprovalsModule, RunLineageModule, PausesModule],
  controllers: [SessionRequestsController],
  providers: [
    RoutedRequestMetrics,
    ToolDispatchAccess,
    UserInputResolver,
    RunRequestsResolver,
    RequestRouter,
    ReplayedToolResults,
    RequestAuditLog,
    ToolInvoker,
    SignedWebhook,
    WebhookToolHandler,
    HookDispatcher,
    UserInputBroker,
    RoutedRequestsProjection,
    ListRoutedRequestsHandler,
    ListThreadRequestsHandler,
    ListPendingUserInputHandler,
    AnswerUserInputHandler,
  ],
})
export class ToolDispatchModule {}
