import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../common';
import { BudgetGuard } from '../../budget-guard';
import { budgetView } from '../../run-budget';
import { GetSessionBudget, type SessionBudgetView } from './get-session-budget.query';

@QueryHandler(GetSessionBudget)
export class GetSessionBudgetHandler implements IQueryHandler<GetSessionBudget, SessionBudgetView> {
  constructor(private readonly budgets: BudgetGuard) {}

  async execute({ sessionId }: GetSessionBudget): Promise<SessionBudgetView> {
    const covering = await this.budgets.sessionBudget(sessionId);
    if (!covering) throw new NotFoundError(`Session ${sessionId} is not live or was created without a budget`);
    return { session_id: sessionId, ...budgetView(covering.budget, covering.used) };
  }
}
