import { Command } from '@nestjs/cqrs';
import type { SessionSummary } from '../create-session/create-session.command';

export class ResumeSession extends Command<SessionSummary> {
  constructor(
    readonly sessionId: string,
    readonly actor?: string,
  ) {
    super();
  }
}
