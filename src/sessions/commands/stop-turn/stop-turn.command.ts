import { Command } from '@nestjs/cqrs';

export interface TurnStopRequested {
  sessionId: string;
  /** The turn ends when the CLI reports it (its session.idle on the stream); the caller watches for it. */
  status: 'stopping';
}

/** A person (or a client) stops the turn the session is running: the CLI's session.abort, recorded. */
export class StopTurn extends Command<TurnStopRequested> {
  constructor(
    readonly sessionId: string,
    readonly actor?: string,
  ) {
    super();
  }
}
