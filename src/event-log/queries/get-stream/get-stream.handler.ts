import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { eq } from 'drizzle-orm';
import { NotFoundError } from '../../../common/domain-error';
import { streamSummaries } from '../../../database/schema';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { GetStream, StreamView } from './get-stream.query';

@QueryHandler(GetStream)
export class GetStreamHandler implements IQueryHandler<GetStream, StreamView> {
  constructor(private readonly database: SqliteDatabase) {}

  async execute({ streamId }: GetStream): Promise<StreamView> {
    const row = this.database.orm.select().from(streamSummaries).where(eq(streamSummaries.streamId, streamId)).get();
    if (!row) throw new NotFoundError(`Stream ${streamId} does not exist`);
    return { ...row, version: row.eventCount };
  }
}
