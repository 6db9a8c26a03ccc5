import { Command } from '@nestjs/cqrs';
import type { RecordedTrace, TraceParent } from '../../../common';

export interface MessageAccepted {
  sessionId: string;
  messageId?: string;
}

/** issue 28: where a message's work goes in a trace. */
export interface MessageTrace {
  /** The caller's span (a request's `traceparent`): the turn nests under it. */
  caller?: TraceParent;
  /** Set by the delegation engine on a run's thread: the run's span, which its turn's work nests under (no turn span). */
  run?: RecordedTrace;
}

export class SendMessage extends Command<MessageAccepted> {
  constructor(
    readonly sessionId: string,
    readonly prompt: string,
    readonly actor?: string,
    readonly trace: MessageTrace = {},
  ) {
    super();
  }
}
