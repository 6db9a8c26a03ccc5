import { Controller, Get, Logger, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { z } from 'zod';
import { utcTimestampParam, ZodValidationPipe, DocumentedAnswers } from '../common';
import { AUDIT_EXPORT_CONTENT_TYPES, EXPORT_PAGE_SIZE, writeAuditExport } from './queries/export-audit-log/audit-export';
import { GetStream } from './queries/get-stream/get-stream.query';
import { ListAuditLog } from './queries/list-audit-log/list-audit-log.query';
import { ListEvents } from './queries/list-events/list-events.query';
import { EVENT_LOG_ANSWERS } from './event-log.api-answers';

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
  actor: id.optional(),
  actorKind: z.enum(['user', 'key', 'agent', 'system'], { message: 'actorKind is one of user, key, agent, system' }).optional(),
  eventKind: z
    .string()
    .regex(/^[a-z_]{1,64}$/, 'eventKind is the part of an event type before its first dot: lower-case letters and underscores')
    .optional(),
  hideCli: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  from: utcTimestampParam.optional(),
  to: utcTimestampParam.optional(),
});
type AuditQuery = z.infer<typeof auditQuery>;
const exportQuery = auditQuery.omit({ after: true, limit: true }).extend({ format: z.enum(['jsonl', 'csv']) });
type ExportQuery = z.infer<typeof exportQuery>;

@ApiTags('events')
@DocumentedAnswers(EVENT_LOG_ANSWERS)
@Controller('api')
export class EventLogController {
  private readonly logger = new Logger(EventLogController.name);

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
    summary: 'The audit log in global order, filtered by session, run, agent, tool, decision, event type, actor and time, paged by global position',
  })
  @ApiQuery({ name: 'after', required: false, description: 'global position to start after (default 0); pass nextAfter for the next page' })
  @ApiQuery({ name: 'limit', required: false, description: '1..1000, default 100' })
  @ApiQuery({ name: 'sessionId', required: false, description: "a session's id (a run's own thread is sub-agent-<runId>)" })
  @ApiQuery({ name: 'runId', required: false })
  @ApiQuery({ name: 'agentId', required: false, description: 'library agent id or sub-agent name' })
  @ApiQuery({ name: 'toolName', required: false })
  @ApiQuery({ name: 'decision', required: false, description: 'approved, denied, success, failure, answered...' })
  @ApiQuery({ name: 'eventType', required: false })
  @ApiQuery({
    name: 'actor',
    required: false,
    description: "who did it: an actor's id (a key's id, a person's subject, `operator`, `local`, `api` for events from before actors were recorded)",
  })
  @ApiQuery({ name: 'actorKind', required: false, description: 'user, key, agent or system' })
  @ApiQuery({ name: 'eventKind', required: false, description: 'the type before its first dot: permission, approval, session, cli...' })
  @ApiQuery({ name: 'hideCli', required: false, description: "true: leave out the CLI's own cli.* events" })
  @ApiQuery({ name: 'from', required: false, description: 'ISO timestamp, inclusive' })
  @ApiQuery({ name: 'to', required: false, description: 'ISO timestamp, exclusive' })
  listAudit(@Query(new ZodValidationPipe(auditQuery)) query: AuditQuery) {
    const { after, limit, ...filter } = query;
    return this.queryBus.execute(new ListAuditLog(filter, after, limit));
  }

  @Get('audit/export')
  @ApiOperation({
    summary: 'Everything GET /api/audit selects with the same filters, as a JSONL or CSV download, streamed page by page',
  })
  @ApiQuery({
    name: 'format',
    required: true,
    enum: ['jsonl', 'csv'],
    description: 'jsonl: one /api/audit entry per line; csv: a header row, then one row per entry',
  })
  @ApiQuery({ name: 'sessionId', required: false })
  @ApiQuery({ name: 'runId', required: false })
  @ApiQuery({ name: 'agentId', required: false })
  @ApiQuery({ name: 'toolName', required: false })
  @ApiQuery({ name: 'decision', required: false })
  @ApiQuery({ name: 'eventType', required: false })
  @ApiQuery({ name: 'eventKind', required: false, description: 'the type before its first dot: permission, approval, session, cli...' })
  @ApiQuery({ name: 'hideCli', required: false, description: "true: leave out the CLI's own cli.* events" })
  @ApiQuery({ name: 'from', required: false, description: 'ISO timestamp, inclusive' })
  @ApiQuery({ name: 'to', required: false, description: 'ISO timestamp, exclusive' })
  async exportAudit(@Query(new ZodValidationPipe(exportQuery)) query: ExportQuery, @Res() response: Response): Promise<void> {
    const { format, ...filter } = query;
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    response.status(200);
    response.setHeader('Content-Type', AUDIT_EXPORT_CONTENT_TYPES[format]);
    response.setHeader('Content-Disposition', `attachment; filename="switchboard-audit-${stamp}.${format}"`);
    response.setHeader('Cache-Control', 'no-store');
    try {
      await writeAuditExport((after) => this.queryBus.execute(new ListAuditLog(filter, after, EXPORT_PAGE_SIZE)), response, format);
      response.end();
    } catch (error) {
      // The status is sent: cut the body short so the client sees a failed download, never a complete-looking file.
      this.logger.error(`audit export failed: ${(error as Error).message}`);
      response.destroy(error as Error);
    }
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
