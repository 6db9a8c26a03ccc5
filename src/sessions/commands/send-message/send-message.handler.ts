import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { formatTraceparent, openTrace, type RecordedTrace, SpanIds } from '../../../common';
import { CopilotCliConnection, CopilotCliConnectionLostError } from '../../../copilot-cli';
import { EventStore, runIdOfThread } from '../../../event-store';
import type { LiveSession } from '../../live-session';
import { decideOnSession } from '../../session-command';
import { LiveSessionLookup } from '../../live-session-lookup';
import { CliRequestFailedError } from '../../session.errors';
import { BETWEEN_TURNS } from '../../session.events';
import { TurnReminders, withReminders } from '../../turn-reminders';
import { ResumeSession } from '../resume-session/resume-session.command';
import { MessageAccepted, type MessageTrace, SendMessage } from './send-message.command';

/**
 * Accepted once the CLI took the prompt; the turn's progress then arrives on the session's event stream.
 * A session between turns that no CLI of this process holds (idle when the service stopped) is resumed
 * first, through ResumeSession and so the LiveSessionStarter, as if the caller had asked.
 */
@CommandHandler(SendMessage)
export class SendMessageHandler implements ICommandHandler<SendMessage, MessageAccepted> {
  constructor(
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly sessions: LiveSessionLookup,
    private readonly reminders: TurnReminders,
    private readonly commandBus: CommandBus,
  ) {}

  async execute({ sessionId, prompt, actor, trace: asked }: SendMessage): Promise<MessageAccepted> {
    const session = await this.sessions.get(sessionId);
    await this.resumeBetweenTurns(session, actor);
    const reminders = await this.reminders.collect(sessionId);
    const trace = messageTrace(session, asked);
    // Recorded before the CLI has it: a message the CLI takes is never missing from the log.
    await decideOnSession(
      this.store,
      session,
      { type: 'SendMessage', sessionId, prompt, reminders, onCurrentCli: session.cliGeneration === this.cli.generation, trace },
      actor,
    );
    try {
      const answer = await this.cli.request<{ messageId?: string }>('session.send', {
        sessionId,
        prompt: withReminders(prompt, reminders),
        // The CLI's own spans of the turn (when its exporter is on) join the same trace under the turn's span.
        traceparent: formatTraceparent(trace.traceId, trace.spanId),
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

  /** An interrupted session (its turn was lost) is left to the decider's 409: resuming it is the caller's call. */
  private async resumeBetweenTurns(session: LiveSession, actor: string | undefined): Promise<void> {
    if (!BETWEEN_TURNS.has(session.status)) return;
    if (session.cliGeneration > 0 && session.cliGeneration === this.cli.generation) return;
    await this.cli.ensureStarted();
    if (session.cliGeneration === this.cli.generation) return;
    await session.resumeOnce(() => this.commandBus.execute(new ResumeSession(session.sessionId, actor)));
  }
}

/**
 * issue 28: the span a message's work nests under. A run's thread works under its run's span (the
 * delegation engine names it; a message sent straight to the thread stays under the run's current one);
 * any other session opens a turn span, a child of the caller's span when a `traceparent` came.
 */
export function messageTrace(session: Pick<LiveSession, 'sessionId' | 'trace'>, asked: MessageTrace): RecordedTrace {
  if (asked.run) return { traceId: asked.run.traceId, spanId: asked.run.spanId };
  const current = session.trace;
  if (runIdOfThread(session.sessionId) && current) return { traceId: current.traceId, spanId: current.spanId };
  const turnId = randomUUID();
  return openTrace(SpanIds.turn(session.sessionId, turnId), `turn:${session.sessionId}:${turnId}`, asked.caller);
}
