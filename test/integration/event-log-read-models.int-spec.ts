import { eq } from 'drizzle-orm';
import { Writable } from 'node:stream';
import { NotFoundError } from '../../src/common/domain-error';
import type { ReadModelDatabase } from '../../src/database/read-model-database';
import { writeAuditExport } from '../../src/event-log/queries/export-audit-log/audit-export';
import { GetStreamHandler } from '../../src/event-log/queries/get-stream/get-stream.handler';
import { GetStream } from '../../src/event-log/queries/get-stream/get-stream.query';
import { ListAuditLogHandler } from '../../src/event-log/queries/list-audit-log/list-audit-log.handler';
import { type AuditFilter, ListAuditLog } from '../../src/event-log/queries/list-audit-log/list-audit-log.query';
import { SessionsReadModel } from '../../src/sessions/sessions-read-model';
import { ListRoutedRequestsHandler } from '../../src/tool-dispatch/queries/list-routed-requests/list-routed-requests.handler';
import { ListRoutedRequests } from '../../src/tool-dispatch/queries/list-routed-requests/list-routed-requests.query';
import { type ReadModelTarget, readModelTargets } from '../fixtures/read-model-targets';

jest.setTimeout(120_000);

const targets = readModelTargets();

const audit = (
  globalPosition: number,
  recordedAt: string,
  concerns: Partial<Record<'sessionId' | 'runId' | 'agentId' | 'toolName' | 'decision', string>>,
) => ({
  globalPosition,
  streamId: concerns.runId ? `run-${concerns.runId}` : `session-${concerns.sessionId ?? 'none'}`,
  eventType: concerns.toolName ? 'tool_call.routed' : 'run.noted',
  actor: globalPosition % 2 ? 'alice' : null,
  correlationId: `c-${globalPosition}`,
  causationId: null,
  recordedAt,
  sessionId: concerns.sessionId ?? null,
  runId: concerns.runId ?? null,
  agentId: concerns.agentId ?? null,
  toolName: concerns.toolName ?? null,
  decision: concerns.decision ?? null,
});

/**
 * The event-log API's read-model reads, written once against ReadModelDatabase, give the same
 * answers on both databases: rows are written straight into the tables, so what is under test is
 * the reading (filters, keyset pages, mapping), not the projections that fill them.
 */
describe.each(targets)('event-log read models on %s', (_name, openTarget) => {
  let target: ReadModelTarget;
  let db: ReadModelDatabase;

  beforeAll(async () => {
    target = await openTarget();
    db = target.db;
    // Positions with holes (other events are not audited), in two sessions, a run, times a day apart.
    await db.orm
      .insert(db.tables.auditLog)
      .values([
        audit(3, '2026-01-01T00:00:00.000Z', { sessionId: 's1', agentId: 'reviewer', toolName: 'save', decision: 'success' }),
        audit(5, '2026-01-02T00:00:00.000Z', { sessionId: 's1', toolName: 'shell', decision: 'denied' }),
        audit(8, '2026-01-03T00:00:00.000Z', { sessionId: 's1', runId: 'r1', agentId: 'lead' }),
        audit(13, '2026-01-04T00:00:00.000Z', { sessionId: 'sub-agent-r1', runId: 'r1', toolName: 'save', decision: 'failure' }),
        audit(21, '2026-01-05T00:00:00.000Z', { sessionId: 's2', toolName: 'save', decision: 'success' }),
        audit(34, '2026-01-06T00:00:00.000Z', { sessionId: 's1', toolName: 'save', decision: 'success' }),
      ]);
    await db.orm.insert(db.tables.routedRequests).values(
      [7, 9, 11, 12, 40].map((globalPosition, i) => ({
        globalPosition,
        parentSessionId: globalPosition === 12 ? 's2' : 's1',
        childSessionId: i === 1 ? 'child-1' : null,
        agentName: i === 1 ? 'reviewer' : null,
        kind: i === 2 ? 'permission' : 'tool_call',
        toolName: 'save',
        arguments: i === 0 ? JSON.stringify({ path: 'a.txt', lines: [1, 2] }) : i === 1 ? 'not json' : null,
        result: i === 0 ? JSON.stringify('done') : null,
        outcome: i === 2 ? 'denied' : 'success',
        reason: i === 2 ? 'policy' : null,
        latencyMs: i === 0 ? 12 : null,
        recordedAt: `2026-01-0${i + 1}T00:00:00.000Z`,
      })),
    );
    await db.orm.insert(db.tables.streamSummaries).values({
      streamId: 'run-r1',
      category: 'run',
      eventCount: 3,
      lastEventType: 'run.completed',
      lastGlobalPosition: 13,
      firstRecordedAt: '2026-01-03T00:00:00.123Z',
      lastRecordedAt: '2026-01-04T10:20:30.456Z',
    });
    const session = (sessionId: string, status: string) => ({
      sessionId,
      status,
      model: 'm',
      config: '{}',
      protocolVersion: 3,
      lastPosition: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    await db.orm.insert(db.tables.sessions).values([session('s1', 'idle'), session('s2', 'idle'), session('s3', 'destroyed')]);
  });

  afterAll(async () => target?.close());

  const listAudit = (filter: AuditFilter, after = 0, limit = 100) => new ListAuditLogHandler(db).execute(new ListAuditLog(filter, after, limit));
  const positions = async (filter: AuditFilter) => (await listAudit(filter)).entries.map((e) => e.position);

  it('audit: each filter, alone and together, picks its entries in position order', async () => {
    expect(await positions({})).toEqual([3, 5, 8, 13, 21, 34]);
    expect(await positions({ sessionId: 's1' })).toEqual([3, 5, 8, 34]);
    expect(await positions({ runId: 'r1' })).toEqual([8, 13]);
    expect(await positions({ agentId: 'lead' })).toEqual([8]);
    expect(await positions({ toolName: 'save' })).toEqual([3, 13, 21, 34]);
    expect(await positions({ toolName: 'save', decision: 'success' })).toEqual([3, 21, 34]);
    expect(await positions({ sessionId: 's1', toolName: 'save', decision: 'success' })).toEqual([3, 34]);
    expect(await positions({ eventType: 'run.noted' })).toEqual([8]);
    expect(await positions({ decision: 'nobody' })).toEqual([]);
    // from inclusive, to exclusive.
    expect(await positions({ from: '2026-01-02T00:00:00.000Z', to: '2026-01-05T00:00:00.000Z' })).toEqual([5, 8, 13]);
    expect(await positions({ from: '2026-01-06T00:00:00.000Z' })).toEqual([34]);
    expect(await positions({ to: '2026-01-01T00:00:00.000Z' })).toEqual([]);
  });

  it("audit: newest first pages down from the newest entry; a kind and hiding the CLI's own events filter by type", async () => {
    const newest = (after: number, limit: number, filter: AuditFilter = {}) =>
      new ListAuditLogHandler(db).execute(new ListAuditLog(filter, after, limit, true));
    const first = await newest(0, 4);
    expect(first.entries.map((e) => e.position)).toEqual([34, 21, 13, 8]);
    expect(first).toMatchObject({ nextAfter: 8, hasMore: true });
    expect(await newest(first.nextAfter, 4)).toMatchObject({
      entries: [expect.objectContaining({ position: 5 }), expect.objectContaining({ position: 3 })],
      hasMore: false,
    });
    expect(await positions({ eventKind: 'run' })).toEqual([8]);
    expect(await positions({ eventKind: 'tool_call', sessionId: 's1' })).toEqual([3, 5, 34]);
    // A kind is the part before the first dot: `tool` is not `tool_call`, and `_` is no wildcard.
    expect(await positions({ eventKind: 'tool' })).toEqual([]);
    expect(await positions({ eventKind: 'toolxcall' })).toEqual([]);
    expect(await positions({ eventKind: 'tool_cal_' })).toEqual([]);
    await db.orm
      .insert(db.tables.auditLog)
      .values({ ...audit(40, '2026-01-06T12:00:00.000Z', { sessionId: 's1' }), eventType: 'cli.assistant.message_delta' });
    try {
      expect(await positions({ sessionId: 's1' })).toEqual([3, 5, 8, 34, 40]);
      expect(await positions({ sessionId: 's1', hideCli: true })).toEqual([3, 5, 8, 34]);
      expect(await positions({ eventKind: 'cli' })).toEqual([40]);
      expect((await newest(0, 2, { hideCli: true })).entries.map((e) => e.position)).toEqual([34, 21]);
    } finally {
      await db.orm.delete(db.tables.auditLog).where(eq(db.tables.auditLog.globalPosition, 40));
    }
  });

  it('audit: entries carry every column under the API names, positions as numbers', async () => {
    const [first] = (await listAudit({ agentId: 'reviewer' })).entries;
    expect(first).toEqual({
      position: 3,
      streamId: 'session-s1',
      eventType: 'tool_call.routed',
      actor: 'alice',
      // A row written before the actor columns (as here) reads as the api actor.
      actorKind: 'key',
      actorId: 'api',
      actorName: 'api',
      correlationId: 'c-3',
      causationId: null,
      recordedAt: '2026-01-01T00:00:00.000Z',
      sessionId: 's1',
      runId: null,
      agentId: 'reviewer',
      toolName: 'save',
      decision: 'success',
    });
  });

  it('audit: keyset pages over a filter follow positions, say whether more follow, and never skip an entry recorded between pages', async () => {
    const first = await listAudit({ toolName: 'save' }, 0, 2);
    expect(first.entries.map((e) => e.position)).toEqual([3, 13]);
    expect(first).toMatchObject({ nextAfter: 13, hasMore: true });
    const second = await listAudit({ toolName: 'save' }, first.nextAfter, 2);
    expect(second.entries.map((e) => e.position)).toEqual([21, 34]);
    expect(second).toMatchObject({ nextAfter: 34, hasMore: false });
    expect(await listAudit({ toolName: 'save' }, 34, 2)).toEqual({ entries: [], nextAfter: 34, hasMore: false });

    // Recorded after the last page was read: the next read from its cursor finds it.
    await db.orm.insert(db.tables.auditLog).values(audit(55, '2026-01-07T00:00:00.000Z', { sessionId: 's3', toolName: 'save' }));
    try {
      expect((await listAudit({ toolName: 'save' }, second.nextAfter, 2)).entries.map((e) => e.position)).toEqual([55]);
    } finally {
      await db.orm.delete(db.tables.auditLog).where(eq(db.tables.auditLog.globalPosition, 55));
    }
  });

  it('audit export: every filtered entry once, across pages, as JSON lines', async () => {
    const chunks: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => (chunks.push(String(chunk)), done()) });
    const pages: number[] = [];
    await writeAuditExport((after) => (pages.push(after), listAudit({ sessionId: 's1' }, after, 3)), sink, 'jsonl');
    const lines = chunks.join('').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { position: number }).position)).toEqual([3, 5, 8, 34]);
    expect(pages).toEqual([0, 8]);
  });

  it("routed requests: a session's requests in position order, paged, JSON columns parsed (text kept when it is not JSON)", async () => {
    const handler = new ListRoutedRequestsHandler(db);
    const page = await handler.execute(new ListRoutedRequests('s1', 0, 2));
    expect(page.nextAfter).toBe(9);
    expect(page.requests).toEqual([
      {
        position: 7,
        kind: 'tool_call',
        parentSessionId: 's1',
        childSessionId: null,
        agentName: null,
        toolName: 'save',
        arguments: { path: 'a.txt', lines: [1, 2] },
        result: 'done',
        outcome: 'success',
        reason: null,
        latencyMs: 12,
        recordedAt: '2026-01-01T00:00:00.000Z',
      },
      expect.objectContaining({ position: 9, childSessionId: 'child-1', agentName: 'reviewer', arguments: 'not json', result: null, latencyMs: null }),
    ]);
    const next = await handler.execute(new ListRoutedRequests('s1', page.nextAfter, 2));
    expect(next.requests.map((r) => [r.position, r.kind, r.outcome, r.reason])).toEqual([
      [11, 'permission', 'denied', 'policy'],
      [40, 'tool_call', 'success', null],
    ]);
    expect(await handler.execute(new ListRoutedRequests('s1', 40, 2))).toEqual({ requests: [], nextAfter: 40 });
    expect((await handler.execute(new ListRoutedRequests('s2', 0, 10))).requests.map((r) => r.position)).toEqual([12]);
    expect(await handler.execute(new ListRoutedRequests('nobody', 0, 10))).toEqual({ requests: [], nextAfter: 0 });
  });

  it('streams: a summary with ISO 8601 times and its version; an unknown stream is not_found', async () => {
    const handler = new GetStreamHandler(db);
    expect(await handler.execute(new GetStream('run-r1'))).toEqual({
      streamId: 'run-r1',
      category: 'run',
      version: 3,
      eventCount: 3,
      lastEventType: 'run.completed',
      lastGlobalPosition: 13,
      firstRecordedAt: '2026-01-03T00:00:00.123Z',
      lastRecordedAt: '2026-01-04T10:20:30.456Z',
    });
    const missing = handler.execute(new GetStream('run-missing'));
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    await expect(missing).rejects.toMatchObject({ code: 'not_found', message: 'Stream run-missing does not exist' });
  });

  it('metrics: sessions counted by status as numbers', async () => {
    const counts = await new SessionsReadModel(db).countByStatus();
    expect(counts.sort((a, b) => a.status.localeCompare(b.status))).toEqual([
      { status: 'destroyed', count: 1 },
      { status: 'idle', count: 2 },
    ]);
  });
});
