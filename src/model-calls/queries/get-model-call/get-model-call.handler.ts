import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventStore, modelCallStreamId } from '../../../event-store';
import { ModelCallNotFoundError } from '../../model-call.errors';
import { type ModelCallBodies, modelCallBodiesOf, type ModelCallView, modelCallViewOf } from '../../model-call-view';
import { ModelCallsReadModel } from '../../model-calls-read-model';
import { GetModelCall } from './get-model-call.query';

@QueryHandler(GetModelCall)
export class GetModelCallHandler implements IQueryHandler<GetModelCall, ModelCallView & ModelCallBodies> {
  constructor(
    private readonly calls: ModelCallsReadModel,
    private readonly store: EventStore,
  ) {}

  async execute({ callId }: GetModelCall): Promise<ModelCallView & ModelCallBodies> {
    // The bodies live on the call's own stream (a handful of events), not in the row.
    const [row, events] = await Promise.all([this.calls.find(callId), this.store.readStream(modelCallStreamId(callId))]);
    if (!row) throw new ModelCallNotFoundError(callId);
    return { ...modelCallViewOf(row), ...modelCallBodiesOf(events) };
  }
}
