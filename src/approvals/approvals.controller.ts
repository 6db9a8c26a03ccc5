import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, UseInterceptors } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { JsonNamingInterceptor, ZodValidationPipe, DocumentedAnswers } from '../common';
import { toApprovalView } from './approval-view';
import { CLIENT_HEADER, personDecisionSource } from './decision-source';
import { DecideApproval, decideApprovalSchema as decideSchema } from './commands/decide-approval/decide-approval.command';
import { APPROVAL_STATUSES, ListApprovals } from './queries/list-approvals/list-approvals.query';
import { APPROVALS_ANSWERS } from './approvals.api-answers';

const listSchema = z
  .object({
    status: z.enum(APPROVAL_STATUSES).optional(),
    sessionId: z.string().min(1).max(200).optional(),
    rootRunId: z.string().min(1).max(64).optional(),
    agentId: z.string().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    /** `nextCursor` of the previous page. */
    after: z.string().min(1).max(200).optional(),
  })
  .strict();

/** issue 14: permission requests that wait for a person, across every session and run. */
@ApiTags('approvals')
@DocumentedAnswers(APPROVALS_ANSWERS)
@Controller('api/approvals')
// Approval views are snake_case inside (GraphQL maps them); the API answers in camelCase. A tool
// call's arguments are what the model wrote and keep their keys.
@UseInterceptors(new JsonNamingInterceptor({ legacyInput: { topLevel: true, nested: [] }, camelCaseResponse: true, opaque: ['arguments'] }))
export class ApprovalsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Approvals, newest first, a page at a time (after=nextCursor); filters: status, sessionId, rootRunId, agentId' })
  async list(@Query(new ZodValidationPipe(listSchema)) query: z.infer<typeof listSchema>) {
    const page = await this.queryBus.execute(
      new ListApprovals(
        { status: query.status, sessionId: query.sessionId, rootRunId: query.rootRunId, agentName: query.agentId },
        query.limit,
        query.after,
      ),
    );
    return { approvals: page.approvals.map(toApprovalView), nextCursor: page.hasNextPage ? page.endCursor : null };
  }

  @Post(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve or deny a pending request (scope once or session); 404 unknown, 409 already decided or expired' })
  decide(
    @Param('id') id: string,
    @Body(new ZodValidationPipe(decideSchema)) body: z.infer<typeof decideSchema>,
    @Headers(CLIENT_HEADER) client: string | undefined,
  ) {
    return this.commandBus.execute(new DecideApproval(id, body, personDecisionSource(client)));
  }
}
