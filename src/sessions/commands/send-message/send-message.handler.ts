import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CopilotCliConnection, CopilotCliConnectionLostError } from '../../../copilot-cli/copilot-cli-connection';
import { EventStore } from '../../../event-store/event-store';
import { decideOnSession } from '../../session-command';
import { LiveSessionLookup } from '../../live-session-lookup';
import { CliRequestFailedError } from '../../session.errors';
import { TurnReminders, withReminders } from '../../turn-reminders';
import { MessageAccepted, SendMessage } from './send-message.command';

/** Accepted once the CLI took the prompt; the turn's progress then arrives on the session's event stream. */
@CommandHandler(SendMessage)
export class SendMessageHandler implements ICommandHandler<SendMessage, MessageAccepted> {
  constructor(
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly sessions: LiveSessionLookup,
    private readonly reminders: TurnReminders,
  ) {}

  async execute({ sessionId, prompt, actor }: SendMessage): Promise<MessageAccepted> {
    const session = await this.sessions.get(sessionId);
    const reminders = await this.reminders.collect(sessionId);
    // Recorded before the CLI has it: a message the CLI takes is never missing from the log.
    await decideOnSession(
      this.store,
      session,
      { type: 'SendMessage', sessionId, prompt, reminders, onCurrentCli: session.cliGeneration === this.cli.generation },
      actor,
    );
    try {
      const answer = await this.cli.request<{ messageId?: string }>('session.send', {
        sessionId,
        prompt: withReminders(prompt, reminders),
      });
      return { sessionId, messageId: answer?.messageId };
    } catch (error) {
      if (error instanceof CopilotCliConnectionLostError) {
        // Not a refused message: the CLI went away with it, and SessionLifecycle interrupts the session.
        throw new CopilotCliConnectionLostError(
          `The Copilot CLI went away before it took the message; session ${sessionId} is interrupted: resume it with POST /api/sessions/${sessionId}/resume`,
          { sessionId },
        );
      }
      const message = (error as Error).message;
      await decideOnSession(this.store, session, { type: 'RecordMessageFailure', sessionId, error: message }, actor);
      throw new CliRequestFailedError(`The Copilot CLI did not take the message: ${message}`, { sessionId });
    }
  }
}
