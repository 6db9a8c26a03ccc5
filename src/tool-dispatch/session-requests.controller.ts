import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { ZodValidationPipe, DocumentedAnswers } from '../common';
import { GetSession } from '../sessions';
import { ListRoutedRequests } from './queries/list-routed-requests/list-routed-requests.query';
import { AnswerUserInput, userInputAnswerSchema as answerSchema } from './commands/answer-user-input/answer-user-input.command';
import { ListPendingUserInput } from './queries/list-pending-user-input/list-pending-user-input.query';
import { SESSION_REQUESTS_ANSWERS } from './session-requests.api-answers';

const pageSchema = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** What the CLI asked on a session's behalf: the audit of routed requests, and questions waiting for the user. */
@ApiTags('sessions')
@DocumentedAnswers(SESSION_REQUESTS_ANSWERS)
@Controller('api/sessions/:id')
export class SessionRequestsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Get('requests')
  @ApiOperation({ summary: 'Audit of tool calls, permission decisions, hooks and user input routed for this session and its sub-agents' })
  async requests(@Param('id') id: string, @Query(new ZodValidationPipe(pageSchema)) page: z.infer<typeof pageSchema>) {
    await this.queryBus.execute(new GetSession(id));
    return this.queryBus.execute(new ListRoutedRequests(id, page.after, page.limit));
  }

  @Get('user-input')
  @ApiOperation({ summary: 'Questions an agent of this session is waiting to have answered' })
  async pending(@Param('id') id: string) {
    return { pending: await this.queryBus.execute(new ListPendingUserInput(id)) };
  }

  @Post('user-input/:requestId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Answer a pending question' })
  answer(@Param('id') id: string, @Param('requestId') requestId: string, @Body(new ZodValidationPipe(answerSchema)) body: z.infer<typeof answerSchema>) {
    return this.commandBus.execute(new AnswerUserInput(id, requestId, body));
  }
}
