import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { assertOwner, type RunSummary, toSummary } from '../../run-caller';
import { RunRepository } from '../../run-repository';
import { RunWorkspaceSummary } from '../../run-workspace-summary';
import { GetRunOutput } from './get-run-output.query';

/** Only the run's owner (or the API) may read it: the same ownership check as agent_stop. */
@QueryHandler(GetRunOutput)
export class GetRunOutputHandler implements IQueryHandler<GetRunOutput, RunSummary> {
  constructor(
    private readonly repository: RunRepository,
    private readonly runWorkspace: RunWorkspaceSummary,
  ) {}

  async execute({ runId, caller }: GetRunOutput): Promise<RunSummary> {
    const state = await this.repository.get(runId);
    assertOwner(state, caller);
    return this.runWorkspace.of(toSummary(state));
  }
}
