import { Query } from '@nestjs/cqrs';
import type { PendingUserInput } from '../../user-input-broker';

/** Questions agents of the session are waiting to have answered (404 for an unknown session). */
export class ListPendingUserInput extends Query<PendingUserInput[]> {
  constructor(readonly sessionId: string) {
    super();
  }
}
