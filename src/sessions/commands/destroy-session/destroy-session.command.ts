import { Command } from '@nestjs/cqrs';

export class DestroySession extends Command<{ sessionId: string; status: 'destroyed' }> {
  constructor(
    readonly sessionId: string,
    readonly actor?: string,
    /** Why, as recorded on `session.destroyed`. */
    readonly reason = 'destroyed through the API',
  ) {
    super();
  }
}
