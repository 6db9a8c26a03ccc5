import { Args, Context, ID, Int, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { map } from 'rxjs';
import { type ApprovalView, toApprovalView } from '../approval-view';
import { CLIENT_HEADER, personDecisionSource } from '../decision-source';
import { type GraphqlContext, ListSize, presentFields, validated, observableToAsyncIterator } from '../../graphql-api';
import { DecideApproval, decideApprovalSchema } from '../commands/decide-approval/decide-approval.command';
import { encodeApprovalCursor } from '../queries/list-approvals/list-approvals.handler';
import { APPROVAL_STATUSES, ListApprovals } from '../queries/list-approvals/list-approvals.query';
import { WatchApprovals } from '../queries/watch-approvals/watch-approvals.query';
import { Approval, ApprovalConnection, ApprovalFilterInput, DecideApprovalInput } from './approval.model';

const APPROVALS_FIRST = new ListSize('first', 1, 500, 50);
const filterSchema = z
  .object({
    status: z.enum(APPROVAL_STATUSES).optional(),
    sessionId: z.string().min(1).max(200).optional(),
    rootRunId: z.string().min(1).max(64).optional(),
    agentId: z.string().min(1).max(200).optional(),
  })
  .strict();

export function approvalOf(view: ApprovalView): Approval {
  return {
    id: view.id,
    status: view.status,
    kind: view.kind,
    toolName: view.tool_name,
    arguments: view.arguments,
    sessionId: view.session_id,
    childSessionId: view.child_session_id,
    agentName: view.agent_name,
    runId: view.run_id,
    rootRunId: view.root_run_id,
    lineagePath: view.lineage_path,
    requestedAt: view.requested_at,
    decidedAt: view.decided_at,
    decision: view.decision,
    scope: view.scope,
    decidedBy: view.decided_by,
    decider: view.decider,
    decidedByName: view.decider?.name ?? null,
    reason: view.reason,
  };
}

/** issue 14: the approvals inbox over GraphQL, the same query and decision as REST, and live changes. */
@Resolver(() => Approval)
export class ApprovalsResolver {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Query(() => ApprovalConnection, {
    description: 'Permission requests that wait or waited for a person, newest first',
    complexity: APPROVALS_FIRST.complexity,
  })
  async approvals(
    @Args('filter', { type: () => ApprovalFilterInput, nullable: true }) filter?: ApprovalFilterInput,
    @Args('first', { type: () => Int, defaultValue: APPROVALS_FIRST.fallback, description: APPROVALS_FIRST.description }) first = APPROVALS_FIRST.fallback,
    @Args('after', { type: () => String, nullable: true, description: 'pageInfo.endCursor of the previous page' }) after?: string,
  ): Promise<ApprovalConnection> {
    const { agentId, ...rest } = validated(filterSchema, presentFields(filter));
    const page = await this.queryBus.execute(new ListApprovals({ ...rest, agentName: agentId }, APPROVALS_FIRST.check(first), after ?? undefined));
    return {
      edges: page.approvals.map((row) => ({ cursor: encodeApprovalCursor(row.askedPosition), node: approvalOf(toApprovalView(row)) })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor ?? after ?? null },
    };
  }

  @Mutation(() => Approval, { description: 'Approve or deny a pending request: not_found when unknown, approval_settled when already decided or expired' })
  async decideApproval(@Args('id', { type: () => ID }) id: string, @Args('input') input: DecideApprovalInput, @Context() context: GraphqlContext) {
    const body = validated(decideApprovalSchema, input);
    const decidedBy = personDecisionSource(context.req?.headers?.[CLIENT_HEADER]);
    return approvalOf(await this.commandBus.execute(new DecideApproval(id, body, decidedBy)));
  }

  @Subscription(() => Approval, {
    description: 'Approvals as they are asked, decided and expired, from now on',
    resolve: (approval: Approval) => approval,
  })
  async approvalsChanged() {
    const changes = await this.queryBus.execute(new WatchApprovals());
    return observableToAsyncIterator(changes.pipe(map(approvalOf)));
  }
}
