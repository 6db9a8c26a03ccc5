import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { inArray } from 'drizzle-orm';
import { jsonArrayValues, ReadModelDatabase } from '../../../database';
import type { RunRow } from '../../run-lineage';
import { GetRunsById } from './get-runs-by-id.query';

@QueryHandler(GetRunsById)
export class GetRunsByIdHandler implements IQueryHandler<GetRunsById, RunRow[]> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ runIds }: GetRunsById): Promise<RunRow[]> {
    if (runIds.length === 0) return [];
    const { runs } = this.db.tables;
    // One JSON array parameter: any number of ids, one statement shape, primary-key lookups.
    return this.db.orm
      .select()
      .from(runs)
      .where(inArray(runs.runId, jsonArrayValues(this.db, runIds)));
  }
}
