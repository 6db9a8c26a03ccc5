import { Command } from '@nestjs/cqrs';

export class AbortSession extends Command<void> {
  constructor(
    readonly sessionId: string,
    /** How long the caller waits for the turn to end; the request itself waits at least 1 s. */
    readonly graceMs: number,
  ) {
    super();
  }
}
