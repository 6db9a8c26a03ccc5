import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyPendingMigrations, defaultMigrationsFolder } from '../../src/database/migrations';
import { AuditLogProjection } from '../../src/event-log/projections/audit-log.projection';
import { runProjectionSync } from '../../src/projections/projection';
import { ListAuditLogHandler } from '../../src/event-log/queries/list-audit-log/list-audit-log.handler';
import { ListAuditLog } from '../../src/event-log/queries/list-audit-log/list-audit-log.query';
import { openTestEventStore, type TestEventStore } from '../fixtures/event-store-fixture';
import { makeTempDir } from '../fixtures/temp-dir';

/** The migrations folder as it was up to (and including) `lastTag`. */
function migrationsUpTo(dir: string, lastTag: string): string {
  const folder = path.join(dir, 'migrations-old');
  fs.cpSync(defaultMigrationsFolder(), folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === lastTag) + 1);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

describe('audit log read model', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  beforeEach(() => (tmp = makeTempDir()));
  afterEach(() => tmp.cleanup());

  it('migration 0005 empties the old rows and rewinds the checkpoint so the projection replays into the new columns', () => {
    const db = new Database(path.join(tmp.dir, 'old.db'));
    applyPendingMigrations(db, migrationsUpTo(tmp.dir, '0004_runs'));
    db.prepare("INSERT INTO audit_log (global_position, stream_id, event_type, recorded_at) VALUES (1, 'session-s', 'x', 'now')").run();
    db.prepare("INSERT INTO projection_checkpoints VALUES ('audit-log', 1, 'now'), ('other', 7, 'now')").run();
    applyPendingMigrations(db);
    expect(db.prepare('SELECT COUNT(*) AS n FROM audit_log').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT projection_name FROM projection_checkpoints').all()).toEqual([{ projection_name: 'other' }]);
    const columns = (db.prepare('PRAGMA table_info(audit_log)').all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns).toEqual(expect.arrayContaining(['session_id', 'run_id', 'agent_id', 'tool_name', 'decision']));
    db.close();
  });

  describe('filters', () => {
    let es: TestEventStore;
    let handler: ListAuditLogHandler;

    beforeEach(async () => {
      es = openTestEventStore(path.join(tmp.dir, 'audit.db'));
      await es.store.append('session-s1', 'no_stream', [
        { type: 'tool_call.routed', data: { parentSessionId: 's1', agentName: 'reviewer', toolName: 'save', outcome: 'success' } },
        { type: 'permission.decided', data: { parentSessionId: 's1', toolName: 'shell', outcome: 'denied' } },
      ]);
      await es.store.append('run-r1', 'no_stream', [{ type: 'x.noted', data: { runId: 'r1', agentId: 'lead', parentThreadId: 's1' } }]);
      await es.store.append('session-sub-agent-r1', 'no_stream', [{ type: 'tool_call.routed', data: { toolName: 'save', outcome: 'failure' } }]);
      const projection = new AuditLogProjection();
      const events = await es.store.readAll({ after: 0, limit: 100 });
      es.database.connection.transaction(() => {
        for (const event of events) runProjectionSync(projection.apply(event, es.database.readModels));
      })();
      handler = new ListAuditLogHandler(es.database.readModels);
    });
    afterEach(() => es.close());

    const types = async (filter: ConstructorParameters<typeof ListAuditLog>[0]) =>
      (await handler.execute(new ListAuditLog(filter, 0, 100))).entries.map((e) => `${e.streamId}:${e.eventType}`);

    it('finds entries by session, run, agent, tool and decision', async () => {
      expect(await types({ sessionId: 's1' })).toEqual(['session-s1:tool_call.routed', 'session-s1:permission.decided', 'run-r1:x.noted']);
      expect(await types({ runId: 'r1' })).toEqual(['run-r1:x.noted', 'session-sub-agent-r1:tool_call.routed']);
      expect(await types({ agentId: 'lead' })).toEqual(['run-r1:x.noted']);
      expect(await types({ toolName: 'save' })).toEqual(['session-s1:tool_call.routed', 'session-sub-agent-r1:tool_call.routed']);
      expect(await types({ toolName: 'save', decision: 'failure' })).toEqual(['session-sub-agent-r1:tool_call.routed']);
      expect(await types({ eventType: 'permission.decided' })).toEqual(['session-s1:permission.decided']);
      expect(await types({ from: '2999-01-01T00:00:00.000Z' })).toEqual([]);
    });

    it('pages by position and says whether more follow', async () => {
      const first = await handler.execute(new ListAuditLog({}, 0, 2));
      expect(first.entries.map((e) => e.position)).toEqual([1, 2]);
      expect(first).toMatchObject({ nextAfter: 2, hasMore: true });
      const second = await handler.execute(new ListAuditLog({}, first.nextAfter, 2));
      expect(second.entries.map((e) => e.position)).toEqual([3, 4]);
      expect(second).toMatchObject({ nextAfter: 4, hasMore: false });
      expect(await handler.execute(new ListAuditLog({}, 4, 2))).toEqual({ entries: [], nextAfter: 4, hasMore: false });
    });

    it('reads a filtered page through the filter column index in position order, not a scan of the log', () => {
      for (const column of ['session_id', 'run_id', 'agent_id', 'tool_name']) {
        const plan = (
          es.database.connection
            .prepare(`EXPLAIN QUERY PLAN SELECT * FROM audit_log WHERE ${column} = ? AND global_position > ? ORDER BY global_position LIMIT 10`)
            .all('x', 0) as Array<{ detail: string }>
        )
          .map((r) => r.detail)
          .join(' | ');
        expect(plan).toMatch(new RegExp(`SEARCH audit_log USING INDEX audit_log_\\w+_idx \\(${column}=\\? AND global_position>\\?\\)`));
        expect(plan).not.toMatch(/TEMP B-TREE/);
      }
    });
  });
});
