import { Query } from '@nestjs/cqrs';
import type { BudgetView } from '../../run-budget';

export interface SessionBudgetView extends BudgetView {
  session_id: string;
}

/** A session's budget over the runs it started: limits, use and what is left (404 without a session or a budget). */
export class GetSessionBudget extends Query<SessionBudgetView> {
  constructor(readonly sessionId: string) {
    super();
  }
}
