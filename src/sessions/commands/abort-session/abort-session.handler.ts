import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CopilotCliConnection } from '../../../copilot-cli';
import { AbortSession } from './abort-session.command';

/**
 * Asks the CLI to abort the session's current turn. Records nothing itself: the turn's end arrives as
 * the CLI's own events on the session stream, which the caller watches. A failed request is thrown.
 */
@CommandHandler(AbortSession)
export class AbortSessionHandler implements ICommandHandler<AbortSession> {
  constructor(private readonly cli: CopilotCliConnection) {}

  async execute({ sessionId, graceMs }: AbortSession): Promise<void> {
    // A grace period shorter than a round trip must not fail the abort request itself.
    await this.cli.request('session.abort', { sessionId }, Math.max(graceMs, 1000));
  }
}
