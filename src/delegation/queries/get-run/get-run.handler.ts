import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { RunsReadModel } from '../../../run-lineage/runs-read-model';
import { budgetUseOf } from '../../budget-guard';
import { UnknownRunError } from '../../run.errors';
import { toRunView, type RunView } from '../../run-view';
import { GetRun } from './get-run.query';

@QueryHandler(GetRun)
export class GetRunHandler implements IQueryHandler<GetRun, RunView> {
  constructor(private readonly runs: RunsReadModel) {}

  async execute({ runId }: GetRun): Promise<RunView> {
    const row = await this.runs.find(runId);
    if (!row) throw new UnknownRunError(runId);
    const now = Date.now();
    return toRunView(row, now, row.budget ? budgetUseOf(await this.runs.subtreeSpend(row.path, now)) : undefined);
  }
}
