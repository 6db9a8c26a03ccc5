import { RunsReadModel } from '../run-lineage';
import { ProvidesTurnReminders, type TurnReminder, type TurnReminderProvider } from '../sessions';

const OUTPUT_PREVIEW_CHARS = 500;

/**
 * spec: agent_recovery. At a session's next turn its main agent reads which of its runs ended since
 * (background ones) or were interrupted (any), with what to do about each. Delivered reminders are
 * recorded (`session.reminded`) and the runs projection marks them, so each is told once.
 */
@ProvidesTurnReminders()
export class RunReminders implements TurnReminderProvider {
  constructor(private readonly runs: RunsReadModel) {}

  async forSession(sessionId: string): Promise<TurnReminder | undefined> {
    const rows = await this.runs.unnotifiedEndsOwnedBy(sessionId);
    if (rows.length === 0) return undefined;
    const lines = rows.map((r) => {
      const head = `- run ${r.runId} (agent ${r.agentId}) is ${r.status}`;
      switch (r.status) {
        case 'completed': {
          const output = r.output ?? '';
          const preview = output.length > OUTPUT_PREVIEW_CHARS ? `${output.slice(0, OUTPUT_PREVIEW_CHARS)}… (agent_output has all of it)` : output;
          return `${head}. Output: ${JSON.stringify(preview)}`;
        }
        case 'interrupted':
          return `${head} (${r.error ?? 'no reason recorded'}). Resume it with agent_run {"run_id": "${r.runId}"} or stop it with agent_stop.`;
        default:
          return `${head}${r.error ? `: ${r.error}` : ''}.`;
      }
    });
    return {
      kind: 'runs',
      text: `Runs you started changed state since your last turn:\n${lines.join('\n')}`,
      data: { runIds: rows.map((r) => r.runId) },
    };
  }
}
