import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { toApprovalView } from './approval-view';
import { CLIENT_HEADER, personDecisionSource } from './decision-source';
import { DecideApproval, decideApprovalSchema as decideSchema } from './commands/decide-approval/decide-approval.command';
import { APPROVAL_STATUSES, ListApprovals } from './queries/list-approvals/list-approvals.query';

const listSchema = z
  .object({
    status: z.enum(APPROVAL_STATUSES).optional(),
    session_id: z.string().min(1).max(200).optional(),
    root_run_id: z.string().min(1).max(64).optional(),
    agent_id: z.string().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    /** `next_cursor` of the previous page. */
    after: z.string().min(1).max(200).optional(),
  })
  .strict();

/** issue 14: permission requests that wait for a person, across every session and run. */
@ApiTags('approvals')
@Controller('api/approvals')
export class ApprovalsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Approvals, newest first, a page at a time (after=next_cursor); filters: status, session_id, root_run_id, agent_id' })
  async list(@Query(new ZodValidationPipe(listSchema)) query: z.infer<typeof listSchema>) {
    const page = await this.queryBus.execute(
      new ListApprovals(
        { status: query.status, sessionId: query.session_id, rootRunId: query.root_run_id, agentName: query.agent_id },
        query.limit,
        query.after,
      ),
    );
    return { approvals: page.approvals.map(toApprovalView), next_cursor: page.hasNextPage ? page.endCursor : null };
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
