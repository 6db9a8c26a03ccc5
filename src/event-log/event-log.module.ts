import { Module } from '@nestjs/common';
import { EventLogController } from './event-log.controller';
import { AuditLogProjection } from './projections/audit-log.projection';
import { StreamSummariesProjection } from './projections/stream-summaries.projection';
import { GetStreamHandler } from './queries/get-stream/get-stream.handler';
import { ListEventsHandler } from './queries/list-events/list-events.handler';

/** Read access to the raw log and its generic read models (stream summaries, audit log). */
@Module({
  controllers: [EventLogController],
  providers: [StreamSummariesProjection, AuditLogProjection, ListEventsHandler, GetStreamHandler],
})
export class EventLogModule {}
