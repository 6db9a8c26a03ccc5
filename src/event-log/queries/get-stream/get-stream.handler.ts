import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { eq } from 'drizzle-orm';
import { NotFoundError } from '../../../common';
import { ReadModelDatabase } from '../../../database';
import { GetStream, StreamView } from './get-stream.query';

@QueryHandler(GetStream)
export class GetStreamHandler implements IQueryHandler<GetStream, StreamView> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ streamId }: GetStream): Promise<StreamView> {
    const { streamSummaries } = this.db.tables;
    const [row] = await this.db.orm.select().from(streamSummaries).where(eq(streamSummaries.streamId, streamId)).limit(1);
    if (!row) throw new NotFoundError(`Stream ${streamId} does not exist`);
    // SQLite keeps the ISO 8601 text the store wrote; PostgreSQL's timestamptz comes back as '2026-01-01 00:00:00.123+00'.
    const iso = this.db.dialect === 'postgres' ? (stored: string) => new Date(stored).toISOString() : (stored: string) => stored;
    return { ...row, firstRecordedAt: iso(row.firstRecordedAt), lastRecordedAt: iso(row.lastRecordedAt), version: row.eventCount };
  }
}
