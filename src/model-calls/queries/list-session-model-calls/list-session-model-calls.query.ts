import { Query } from '@nestjs/cqrs';
import type { ModelCallPage } from '../../model-call-view';

/** A session's model calls (its own agent's and its CLI sub-agents'), oldest first, after a cursor. */
export class ListSessionModelCalls extends Query<ModelCallPage> {
  constructor(
    readonly sessionId: string,
    readonly limit: number,
    /** `nextCursor` of the previous page. */
    readonly after?: string,
  ) {
    super();
  }
}
