import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type ModelCallPage, modelCallPageOf } from '../../model-call-view';
import { ModelCallsReadModel } from '../../model-calls-read-model';
import { ListModelCallsOfRuns } from './list-model-calls-of-runs.query';

@QueryHandler(ListModelCallsOfRuns)
export class ListModelCallsOfRunsHandler implements IQueryHandler<ListModelCallsOfRuns, ModelCallPage[]> {
  constructor(private readonly calls: ModelCallsReadModel) {}

  async execute({ keys, limit }: ListModelCallsOfRuns): Promise<ModelCallPage[]> {
    const pages = await this.calls.ofRuns(keys, limit + 1);
    return pages.map((rows) => modelCallPageOf(rows, limit));
  }
}
