import { Controller, Get, Param, UseInterceptors } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { JsonNamingInterceptor } from '../common/json-naming/json-naming.interceptor';
import { GetSessionBudget } from './queries/get-session-budget/get-session-budget.query';

/** A session's budget is the delegation engine's to count: it covers the runs the session starts. */
@ApiTags('sessions')
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
