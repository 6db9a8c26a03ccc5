import { Context, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { QueryBus } from '@nestjs/cqrs';
import { NotFoundError } from '../../common';
import type { GraphqlContext } from '../../graphql-api';
import { RunLoaders, Run, RunBudgetModel } from '../../run-lineage';
import { Session, SessionSummary } from '../../sessions';
import { GetSessionBudget } from '../queries/get-session-budget/get-session-budget.query';
import { budgetModelOf, runOf } from './runs.resolver';

/** The run a session executes, through the operation's run loader (one statement for a whole list). */
async function runOfSession({ runId }: { runId: string | null }, { loaders }: GraphqlContext) {
  if (!runId) return null;
  const row = await loaders.of(RunLoaders).runById.load(runId);
  return row ? runOf(row) : null;
}

/** Fields of a session in a list. */
@Resolver(() => SessionSummary)
export class SessionSummaryRunResolver {
  @ResolveField(() => Run, { nullable: true, description: 'The delegated run this session executes; null for a chat' })
  run(@Parent() session: { runId: string | null }, @Context() context: GraphqlContext) {
    return runOfSession(session, context);
  }
}

/** What delegation adds to a session: the run it executes, and its budget over the runs it started. */
@Resolver(() => Session)
export class SessionRunResolver {
  constructor(private readonly queryBus: QueryBus) {}

  @ResolveField(() => Run, { nullable: true, description: 'The delegated run this session executes; null for a chat' })
  run(@Parent() session: { runId: string | null }, @Context() context: GraphqlContext) {
    return runOfSession(session, context);
  }

  @ResolveField(() => RunBudgetModel, {
    nullable: true,
    description: 'Its budget over every run it started (and their runs): limits, use and what is left; null without one or once it is gone',
  })
  async budget(@Parent() session: { sessionId: string }): Promise<RunBudgetModel | null> {
    try {
      return budgetModelOf(await this.queryBus.execute(new GetSessionBudget(session.sessionId)));
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }
}
