import { Command } from '@nestjs/cqrs';
import type { CreateSessionRequest } from '../../session-config';

export interface SessionSummary {
  sessionId: string;
  status: string;
  model: string;
  protocolVersion?: number;
}

export class CreateSession extends Command<SessionSummary> {
  constructor(
    readonly request: CreateSessionRequest,
    readonly actor?: string,
  ) {
    super();
  }
}
