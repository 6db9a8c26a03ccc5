import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { eq } from 'drizzle-orm';
import { KeyedReadBatch, ReadModelDatabase, type ReadTables } from '../../../database';
import type { RunRow } from '../../run-lineage';
import { ListRunChildren } from './list-run-children.query';

export const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

@QueryHandler(ListRunChildren)
export class ListRunChildrenHandler implements IQueryHandler<ListRunChildren, RunRow[][]> {
  private readonly batch: KeyedReadBatch<string, ReadTables['runs']>;

  constructor(db: ReadModelDatabase) {
    const { runs } = db.tables;
    // Ids are uuid v7, so ordering by path orders siblings by start.
    this.batch = new KeyedReadBatch(db, {
      table: runs,
      fieldsOf: (parentRunId) => ({ id: parentRunId }),
      where: (key) => eq(runs.parentRunId, key('id')),
      orderBy: runs.path,
    });
  }

  async execute({ parentRunIds, limit }: ListRunChildren): Promise<RunRow[][]> {
    return (await this.batch.run(parentRunIds, limit)).map((rows) => rows.sort(byPath));
  }
}
