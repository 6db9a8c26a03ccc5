import { z } from 'zod';
import { type ControllerAnswers, SESSION_ID, uuidParameter } from '../common';
import { budgetView } from './runs.api-answers';
import type { SessionBudgetController } from './session-budget.controller';

/** What GET /api/sessions/:id/budget answers. */
export const SESSION_BUDGET_ANSWERS: ControllerAnswers<SessionBudgetController> = {
  answers: {
    budget: {
      status: 200,
      description: "The session's budget",
      schema: budgetView.extend({ sessionId: z.string() }),
      example: {
        sessionId: SESSION_ID,
        limits: { maxTokens: 200000, maxRuns: 10 },
        used: { tokens: 5120, toolCalls: 4, runs: 1, durationMs: 49775, cost: 0.0158 },
        remaining: { maxTokens: 194880, maxRuns: 9 },
      },
    },
  },
  pathParameters: { id: uuidParameter(SESSION_ID) },
};
