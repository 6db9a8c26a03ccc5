import { Module } from '@nestjs/common';
import { EventLogController } from './event-log.controller';
import { AuditLogProjection } from './projections/audit-log.projection';
import { StreamSummariesProjection } from './projections/stream-summaries.projection';
import { GetStreamHandler } from './queries/get-stream/get-stream.handler';
import { ListAuditLogHandler } from './queries/list-audit-log/list-audit-log.handler';
import { ListEventsHandler } from './queries/list-events/list-events.handler';
import { ListEventsBeforeHandler } from './queries/list-events-before/list-events-before.handler';
import { ListStreamsEventsHandler } from './queries/list-streams-events/list-streams-events.handler';
import { WatchStreamHandler } from './queries/watch-stream/watch-stream.handler';
import { AuditResolver } from './graphql/audit.resolver';
import { EventLogAccess } from './event-log.access';

/** Read access to the raw log and its generic read models (stream summaries, audit log with its filters). */
@Module({
  controllers: [EventLogController],
  providers: [
    EventLogAccess,
    AuditResolver,
    StreamSummariesProjection,
    AuditLogProjection,
    ListEventsHandler,
    ListEventsBeforeHandler,
    GetStreamHandler,
    ListAuditLogHandler,
    ListStreamsEventsHandler,
    WatchStreamHandler,
  ],
})
export class EventLogModule {}
