import { Query } from '@nestjs/cqrs';
import type { ModelCallBodies, ModelCallView } from '../../model-call-view';

/** One model call, with its request and answer when they were kept. */
export class GetModelCall extends Query<ModelCallView & ModelCallBodies> {
  constructor(readonly callId: string) {
    super();
  }
}
