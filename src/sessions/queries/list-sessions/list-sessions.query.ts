import { Query } from '@nestjs/cqrs';

export interface SessionListItem {
  sessionId: string;
  status: string;
  model: string;
  createdAt: string;
  updatedAt: string;
}

export class ListSessions extends Query<{ sessions: SessionListItem[] }> {
  constructor(
    readonly status: string | undefined,
    readonly limit: number,
  ) {
    super();
  }
}
