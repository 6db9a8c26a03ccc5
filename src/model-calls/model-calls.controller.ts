import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { cursorPageQuery, ZodValidationPipe, DocumentedAnswers } from '../common';
import { GetModelCall } from './queries/get-model-call/get-model-call.query';
import { GetModelCallSpend } from './queries/get-model-call-spend/get-model-call-spend.query';
import { GetModelRoute } from './queries/get-model-route/get-model-route.query';
import { ListRunModelCalls } from './queries/list-run-model-calls/list-run-model-calls.query';
import { ListSessionModelCalls } from './queries/list-session-model-calls/list-session-model-calls.query';
import type { SpendKey } from './model-calls-read-model';
import { MODEL_CALLS_ANSWERS } from './model-calls.api-answers';

export const MODEL_CALLS_PAGE = { min: 1, max: 500, fallback: 50 } as const;

const pageSchema = cursorPageQuery(MODEL_CALLS_PAGE, 200);

const runPageSchema = pageSchema.extend({
  subtree: z.enum(['true', 'false'], { message: 'subtree must be true or false' }).optional(),
});

/**
 * issue 25: the model-call ledger over REST. Lists answer a page with the spend of the whole session,
 * run or subtree, and whether the CLI routes model calls at all (a CLI that cannot lists none, and says why).
 */
@ApiTags('model-calls')
@DocumentedAnswers(MODEL_CALLS_ANSWERS)
@Controller('api')
export class ModelCallsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get('sessions/:id/model-calls')
  @ApiOperation({
    summary: "A session's model calls (its agent's and its CLI sub-agents'), oldest first, a page at a time (after=nextCursor), with their spend",
  })
  async listOfSession(@Param('id') id: string, @Query(new ZodValidationPipe(pageSchema)) query: z.infer<typeof pageSchema>) {
    const page = await this.queryBus.execute(new ListSessionModelCalls(id, query.limit, query.after));
    return this.withSpendAndRoute(page, { sessionId: id });
  }

  @Get('runs/:id/model-calls')
  @ApiOperation({
    summary: "A run's model calls (subtree=true: every run under it too), oldest first, a page at a time (after=nextCursor), with their spend",
  })
  async listOfRun(@Param('id') id: string, @Query(new ZodValidationPipe(runPageSchema)) query: z.infer<typeof runPageSchema>) {
    const subtree = query.subtree === 'true';
    const { runPath, ...page } = await this.queryBus.execute(new ListRunModelCalls(id, subtree, query.limit, query.after));
    return this.withSpendAndRoute(page, subtree ? { runPath } : { runId: id });
  }

  @Get('model-calls/:id')
  @ApiOperation({ summary: 'One model call with its request and answer when they were kept (SWITCHBOARD_MODEL_CONTENT=full)' })
  get(@Param('id') id: string) {
    return this.queryBus.execute(new GetModelCall(id));
  }

  private async withSpendAndRoute<P extends object>(page: P, key: SpendKey) {
    const [[spend], modelRoute] = await Promise.all([this.queryBus.execute(new GetModelCallSpend([key])), this.queryBus.execute(new GetModelRoute())]);
    return { ...page, spend, modelRoute };
  }
}
