import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { LineageLookup } from '../../../run-lineage';
import { RunOfCallsNotFoundError } from '../../model-call.errors';
import { decodeModelCallCursor, modelCallPageOf } from '../../model-call-view';
import { ModelCallsReadModel } from '../../model-calls-read-model';
import { ListRunModelCalls, type RunModelCallPage } from './list-run-model-calls.query';

@QueryHandler(ListRunModelCalls)
export class ListRunModelCallsHandler implements IQueryHandler<ListRunModelCalls, RunModelCallPage> {
  constructor(
    private readonly calls: ModelCallsReadModel,
    private readonly lineage: LineageLookup,
  ) {}

  async execute({ runId, subtree, limit, after }: ListRunModelCalls): Promise<RunModelCallPage> {
    const cursor = after === undefined ? undefined : decodeModelCallCursor(after);
    const place = await this.lineage.placeOf(runId);
    if (!place) throw new RunOfCallsNotFoundError(runId);
    // The same read as GraphQL's per-level loader, for one run.
    const [rows] = await this.calls.ofRuns(
      [{ runId, ...(subtree ? { subtreePath: place.path } : {}), ...(cursor !== undefined ? { after: cursor } : {}) }],
      limit + 1,
    );
    return { ...modelCallPageOf(rows, limit), runPath: place.path };
  }
}
