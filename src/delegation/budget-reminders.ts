import { RunsReadModel } from '../run-lineage';
import { ProvidesTurnReminders, type TurnReminder, type TurnReminderProvider } from '../sessions';
import type { BudgetBreach } from './run-budget';

/**
 * At a session's next turn its main agent reads which of the runs it started reached 80% of a budget
 * limit (`run.budget_warned`), as it reads which ended. `session.reminded` (kind `budget`) carries how
 * many warnings of each run were told; the runs projection keeps that count, so each is told once.
 */
@ProvidesTurnReminders()
export class BudgetReminders implements TurnReminderProvider {
  constructor(private readonly runs: RunsReadModel) {}

  async forSession(sessionId: string): Promise<TurnReminder | undefined> {
    const rows = await this.runs.untoldBudgetWarningsOwnedBy(sessionId);
    if (rows.length === 0) return undefined;
    const told: Record<string, number> = {};
    const lines = rows.flatMap((row) => {
      const warnings = JSON.parse(row.budgetWarnings) as BudgetBreach[];
      told[row.runId] = warnings.length;
      return warnings
        .slice(row.budgetWarningsTold)
        .map(
          (w) =>
            `- run ${row.runId} (agent ${row.agentId}) used ${w.used} of its ${w.limit} ${w.allowed}; past the limit it and every run under it are stopped.`,
        );
    });
    return {
      kind: 'budget',
      text: `Runs you started are close to their budget:\n${lines.join('\n')}`,
      data: { told },
    };
  }
}
