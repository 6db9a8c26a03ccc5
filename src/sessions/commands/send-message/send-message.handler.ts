import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CopilotCliConnection, CopilotCliConnectionLostError } from '../../../copilot-cli/copilot-cli-connection';
import { EventStore } from '../../../event-store/event-store';
import { sessionStreamId } from '../../../event-store/stream-ids';
import { SessionEvents } from '../../session.events';
import { LiveSessionLookup } from '../../live-session-lookup';
import { CliRequestFailedError, SessionStateError } from '../../session.errors';
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
    const session = this.sessions.get(sessionId);
    if (session.status === 'interrupted' || session.cliGeneration !== this.cli.generation) {
      throw new SessionStateError(
        `Session ${sessionId} was interrupted (the Copilot CLI restarted); resume it with POST /api/sessions/${sessionId}/resume`,
      );
    }
    if (session.status === 'starting') throw new SessionStateError(`Session ${sessionId} is still starting`);
    const stream = sessionStreamId(sessionId);
    const metadata = { actor, correlationId: sessionId };
    const reminders = this.reminders.collect(sessionId);
    await this.store.append(stream, 'any', [
      { type: SessionEvents.messageSent, data: { prompt }, metadata },
      ...reminders.map((r) => ({ type: SessionEvents.reminded, data: { kind: r.kind, text: r.text, ...r.data }, metadata })),
    ]);
    session.status = 'running';
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
      session.status = 'idle';
      const message = (error as Error).message;
      await this.store.append(stream, 'any', [{ type: SessionEvents.messageFailed, data: { error: message }, metadata }]);
      throw new CliRequestFailedError(`The Copilot CLI did not take the message: ${message}`, { sessionId });
    }
  }
}
