import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { GetSession } from '../sessions/queries/get-session/get-session.query';
import { ListRoutedRequests } from './queries/list-routed-requests/list-routed-requests.query';
import { UserInputBroker } from './user-input-broker';

const pageSchema = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
const answerSchema = z.object({ answer: z.string().max(100_000), wasFreeform: z.boolean().default(true) });

/** What the CLI asked on a session's behalf: the audit of routed requests, and questions waiting for the user. */
@ApiTags('sessions')
@Controller('api/sessions/:id')
export class SessionRequestsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly userInput: UserInputBroker,
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
    await this.queryBus.execute(new GetSession(id));
    return { pending: this.userInput.pendingFor(id) };
  }

  @Post('user-input/:requestId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Answer a pending question' })
  answer(
    @Param('id') id: string,
    @Param('requestId') requestId: string,
    @Body(new ZodValidationPipe(answerSchema)) body: z.infer<typeof answerSchema>,
  ) {
    const question = this.userInput.answer(id, requestId, body);
    return { requestId: question.requestId, answered: true };
  }
}
