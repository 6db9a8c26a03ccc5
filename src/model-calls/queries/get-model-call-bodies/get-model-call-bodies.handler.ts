import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventStore, modelCallStreamId } from '../../../event-store';
import { type ModelCallBodies, modelCallBodiesOf } from '../../model-call-view';
import { GetModelCallBodies } from './get-model-call-bodies.query';

/** A call's stream has a few events (started, then finished, failed or interrupted): ten is every one of them. */
const EVENTS_PER_CALL = 10;

@QueryHandler(GetModelCallBodies)
export class GetModelCallBodiesHandler implements IQueryHandler<GetModelCallBodies, ModelCallBodies[]> {
  constructor(private readonly store: EventStore) {}

  async execute({ callIds }: GetModelCallBodies): Promise<ModelCallBodies[]> {
    const reads = await this.store.readStreams(callIds.map((id) => ({ streamIds: [modelCallStreamId(id)], after: 0, limit: EVENTS_PER_CALL })));
    return reads.map(modelCallBodiesOf);
  }
}
