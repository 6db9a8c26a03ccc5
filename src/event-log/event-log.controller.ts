import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { utcTimestampParam } from '../common/utc-timestamp';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { GetStream } from './queries/get-stream/get-stream.query';
import { ListAuditLog } from './queries/list-audit-log/list-audit-log.query';
import { ListEvents } from './queries/list-events/list-events.query';

const pageQuery = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
type PageQuery = z.infer<typeof pageQuery>;

const id = z.string().min(1).max(256);
const auditQuery = pageQuery.extend({
  sessionId: id.optional(),
  runId: id.optional(),
  agentId: id.optional(),
  toolName: id.optional(),
  decision: id.optional(),
  eventType: id.optional(),
  from: utcTimestampParam.optional(),
  to: utcTimestampParam.optional(),
});
type AuditQuery = z.infer<typeof auditQuery>;

@ApiTags('events')
@Controller('api')
export class EventLogController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get('events')
  @ApiOperation({ summary: 'The raw event log in global order, paged by global position' })
  @ApiQuery({ name: 'after', required: false, description: 'global position to start after (default 0)' })
  @ApiQuery({ name: 'limit', required: false, description: '1..1000, default 100' })
  listEvents(@Query(new ZodValidationPipe(pageQuery)) page: PageQuery) {
    return this.queryBus.execute(new ListEvents(page.after, page.limit));
  }

  @Get('audit')
  @ApiOperation({
    summary: 'The audit log in global order, filtered by session, run, agent, tool, decision, event type and time, paged by global position',
  })
  @ApiQuery({ name: 'after', required: false, description: 'global position to start after (default 0); pass nextAfter for the next page' })
  @ApiQuery({ name: 'limit', required: false, description: '1..1000, default 100' })
  @ApiQuery({ name: 'sessionId', required: false, description: "a session's id (a run's own thread is sub-agent-<runId>)" })
  @ApiQuery({ name: 'runId', required: false })
  @ApiQuery({ name: 'agentId', required: false, description: 'library agent id or sub-agent name' })
  @ApiQuery({ name: 'toolName', required: false })
  @ApiQuery({ name: 'decision', required: false, description: 'approved, denied, success, failure, answered...' })
  @ApiQuery({ name: 'eventType', required: false })
  @ApiQuery({ name: 'from', required: false, description: 'ISO timestamp, inclusive' })
  @ApiQuery({ name: 'to', required: false, description: 'ISO timestamp, exclusive' })
  listAudit(@Query(new ZodValidationPipe(auditQuery)) query: AuditQuery) {
    const { after, limit, ...filter } = query;
    return this.queryBus.execute(new ListAuditLog(filter, after, limit));
  }

  @Get('streams/:streamId')
  @ApiOperation({ summary: 'A stream: its version and latest event' })
  getStream(@Param('streamId') streamId: string) {
    return this.queryBus.execute(new GetStream(streamId));
  }

  @Get('streams/:streamId/events')
  @ApiOperation({ summary: "A stream's events in order, paged by stream position" })
  @ApiQuery({ name: 'after', required: false, description: 'stream position to start after (default 0)' })
  @ApiQuery({ name: 'limit', required: false, description: '1..1000, default 100' })
  async listStreamEvents(@Param('streamId') streamId: string, @Query(new ZodValidationPipe(pageQuery)) page: PageQuery) {
    await this.queryBus.execute(new GetStream(streamId)); // 404 for an unknown stream, not an empty page
    return this.queryBus.execute(new ListEvents(page.after, page.limit, streamId));
  }
}
