import { Command } from '@nestjs/cqrs';

export interface MessageAccepted {
  sessionId: string;
  messageId?: string;
}

export class SendMessage extends Command<MessageAccepted> {
  constructor(
    readonly sessionId: string,
    readonly prompt: string,
    readonly actor?: string,
  ) {
    super();
  }
}
