import { Controller, Get, Param, UseInterceptors } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { JsonNamingInterceptor, DocumentedAnswers } from '../common';
import { GetSessionBudget } from './queries/get-session-budget/get-session-budget.query';
import { SESSION_BUDGET_ANSWERS } from './session-budget.api-answers';

/** A session's budget is the delegation engine's to count: it covers the runs the session starts. */
@ApiTags('sessions')
@DocumentedAnswers(SESSION_BUDGET_ANSWERS)
@Controller('api/sessions')
@UseInterceptors(new JsonNamingInterceptor({ legacyInput: { topLevel: false, nested: [] }, camelCaseResponse: true }))
export class SessionBudgetController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':id/budget')
  @ApiOperation({ summary: "A live session's budget over the runs it started: limits, use and what is left (404 without one)" })
  budget(@Param('id') id: string) {
    return this.queryBus.execute(new GetSessionBudget(id));
  }
}
