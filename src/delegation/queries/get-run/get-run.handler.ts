import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { eq } from 'drizzle-orm';
import { runs } from '../../../database/schema';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { UnknownRunError } from '../../run.errors';
import { toRunView, type RunView } from '../../run-view';
import { GetRun } from './get-run.query';

@QueryHandler(GetRun)
export class GetRunHandler implements IQueryHandler<GetRun, RunView> {
  constructor(private readonly database: SqliteDatabase) {}

  async execute({ runId }: GetRun): Promise<RunView> {
    const row = this.database.orm.select().from(runs).where(eq(runs.runId, runId)).get();
    if (!row) throw new UnknownRunError(runId);
    return toRunView(row);
  }
}
