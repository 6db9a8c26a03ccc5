import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CopilotCliConnection } from '../../../copilot-cli';
import { EventStore } from '../../../event-store';
import { decideOnSession } from '../../session-command';
import { LiveSessionLookup } from '../../live-session-lookup';
import { CliRequestFailedError } from '../../session.errors';
import { StopTurn, TurnStopRequested } from './stop-turn.command';

/** How long the CLI has to take the abort request (it ends the turn after, with its own events). */
const ABORT_REQUEST_TIMEOUT_MS = 10_000;

/**
 * Stops the session's running turn: `session.abort_requested` is recorded first (who asked, decided on
 * the session's state: only a running turn stops), then the CLI is asked to abort. The turn's end arrives
 * as the CLI's own events (session.idle), which move the session to idle.
 */
@CommandHandler(StopTurn)
export class StopTurnHandler implements ICommandHandler<StopTurn, TurnStopRequested> {
  constructor(
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly sessions: LiveSessionLookup,
  ) {}

  async execute({ sessionId, actor }: StopTurn): Promise<TurnStopRequested> {
    const session = await this.sessions.get(sessionId);
    await decideOnSession(this.store, session, { type: 'RequestAbort', sessionId, onCurrentCli: session.cliGeneration === this.cli.generation }, actor);
    try {
      await this.cli.request('session.abort', { sessionId }, ABORT_REQUEST_TIMEOUT_MS);
    } catch (error) {
      throw new CliRequestFailedError(`The Copilot CLI did not take the abort: ${(error as Error).message}; try again, or destroy the session`, {
        sessionId,
      });
    }
    return { sessionId, status: 'stopping' };
  }
}
