import { ApprovalStepAttribution } from './approval-step-attribution';
import { Module } from '@nestjs/common';
import { RunLineageModule } from '../run-lineage';
import { SessionsModule } from '../sessions';
import { ApprovalBroker } from './approval-broker';
import { ApprovalsController } from './approvals.controller';
import { DecideApprovalHandler } from './commands/decide-approval/decide-approval.handler';
import { ApprovalsProjection } from './projections/approvals.projection';
import { ListApprovalsHandler } from './queries/list-approvals/list-approvals.handler';
import { WatchApprovalsHandler } from './queries/watch-approvals/watch-approvals.handler';
import { ApprovalsResolver } from './graphql/approvals.resolver';
import { ApprovalsAccess } from './approvals.access';
import { ApprovalMcpTools } from './mcp/approval-tools';

/**
 * issue 14: a human in the loop. Permission requests the session's policy must ask about wait here
 * (`ApprovalBroker`, fed by the tool-dispatch router) until a person decides over REST or GraphQL.
 */
@Module({
  imports: [SessionsModule, RunLineageModule],
  controllers: [ApprovalsController],
  providers: [
    ApprovalMcpTools,
    ApprovalsAccess,
    ApprovalsResolver,
    ApprovalBroker,
    ApprovalsProjection,
    ApprovalStepAttribution,
    ListApprovalsHandler,
    WatchApprovalsHandler,
    DecideApprovalHandler,
  ],
  exports: [ApprovalBroker],
})
export class ApprovalsModule {}
