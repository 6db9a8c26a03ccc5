import { z } from 'zod';
import { type ControllerAnswers, SESSION_ID, AT, LATER, KEY_ID, iso, nullable, text } from '../common';
import type { EventLogController } from './event-log.controller';

const storedEvent = z.object({
  globalPosition: z.number().int(),
  eventId: z.uuid(),
  streamId: z.string(),
  streamPosition: z.number().int(),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()),
  recordedAt: iso,
});
const eventExample = {
  globalPosition: 1201,
  eventId: '0192f3a4-bbbb-7abc-8def-0123456789ab',
  streamId: `session-${SESSION_ID}`,
  streamPosition: 3,
  type: 'session.message_sent',
  data: { sessionId: SESSION_ID, prompt: 'Review the diff in src/parser.ts' },
  metadata: { actor: 'console', correlationId: SESSION_ID, by: { kind: 'user', id: 'https://idp.example.com#ada', name: 'Ada Lovelace', via: 'console' } },
  recordedAt: AT,
};
const eventPage = z.object({ events: z.array(storedEvent), nextAfter: z.number().int() });
const auditEntry = z.object({
  position: z.number().int(),
  streamId: z.string(),
  eventType: z.string(),
  actor: nullable(z.string()).describe('the client string recorded: console, api, switchboard, copilot-cli...'),
  actorKind: z.enum(['user', 'key', 'agent', 'system']).describe('issue 27: who did it (an event recorded before: the api key)'),
  actorId: z.string(),
  actorName: z.string(),
  correlationId: nullable(z.string()),
  causationId: nullable(z.string()),
  recordedAt: iso,
  sessionId: nullable(z.string()),
  runId: nullable(z.string()),
  agentId: nullable(z.string()),
  toolName: nullable(z.string()),
  decision: nullable(z.string()),
});
const auditExample = {
  position: 1240,
  streamId: `session-${SESSION_ID}`,
  eventType: 'permission.decided',
  actor: 'api',
  actorKind: 'key',
  actorId: KEY_ID,
  actorName: 'nightly-ci',
  correlationId: SESSION_ID,
  causationId: null,
  recordedAt: AT,
  sessionId: SESSION_ID,
  runId: null,
  agentId: 'code-reviewer',
  toolName: 'view',
  decision: 'approved',
};

/** What the event log's and the audit's routes answer. */
export const EVENT_LOG_ANSWERS: ControllerAnswers<EventLogController> = {
  answers: {
    listEvents: { status: 200, description: 'A page of events', schema: eventPage, example: { events: [eventExample], nextAfter: 1201 } },
    listAudit: {
      status: 200,
      description: 'A page of the audit log',
      schema: z.object({ entries: z.array(auditEntry), nextAfter: z.number().int(), hasMore: z.boolean() }),
      example: { entries: [auditExample], nextAfter: 1240, hasMore: false },
    },
    exportAudit: {
      status: 200,
      ...text(
        'The filtered audit log: JSONL (one /api/audit entry per line) or CSV (a header row, then one row per entry)',
        'application/x-ndjson',
        `${JSON.stringify(auditExample)}\n`,
      ),
    },
    getStream: {
      status: 200,
      description: 'The stream',
      schema: z.object({
        streamId: z.string(),
        category: z.string(),
        version: z.number().int(),
        eventCount: z.number().int(),
        lastEventType: z.string(),
        lastGlobalPosition: z.number().int(),
        firstRecordedAt: iso,
        lastRecordedAt: iso,
      }),
      example: {
        streamId: `session-${SESSION_ID}`,
        category: 'session',
        version: 42,
        eventCount: 42,
        lastEventType: 'cli.session.idle',
        lastGlobalPosition: 1290,
        firstRecordedAt: AT,
        lastRecordedAt: LATER,
      },
    },
    listStreamEvents: {
      status: 200,
      description: "A page of the stream's events",
      schema: eventPage,
      example: { events: [eventExample], nextAfter: 3 },
    },
  },
  pathParameters: { streamId: { example: `session-${SESSION_ID}` } },
};
