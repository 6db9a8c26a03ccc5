import { Query } from '@nestjs/cqrs';
import type { ModelCallBodies } from '../../model-call-view';

/** The kept request and answer of several calls in one read of their streams, in the order of `callIds`. */
export class GetModelCallBodies extends Query<ModelCallBodies[]> {
  constructor(readonly callIds: readonly string[]) {
    super();
  }
}
