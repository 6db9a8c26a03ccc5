import { Query } from '@nestjs/cqrs';

export interface RoutedRequestView {
  position: number;
  kind: string;
  parentSessionId: string;
  childSessionId: string | null;
  agentName: string | null;
  toolName: string | null;
  arguments: unknown;
  result: unknown;
  outcome: string;
  reason: string | null;
  latencyMs: number | null;
  recordedAt: string;
}

/** The audit of one session's routed requests, in order, paged by global position. */
export class ListRoutedRequests extends Query<{ requests: RoutedRequestView[]; nextAfter: number }> {
  constructor(
    readonly sessionId: string,
    readonly after: number,
    readonly limit: number,
  ) {
    super();
  }
}
