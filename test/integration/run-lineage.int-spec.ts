import Database from 'better-sqlite3';
import * as path from 'node:path';
import { applyPendingMigrations } from '../../src/database/migrations';
import { SqliteDatabase } from '../../src/database/sqlite-database';
import { GetRunSubtreesHandler } from '../../src/run-lineage/queries/get-run-subtrees/get-run-subtrees.handler';
import { GetRunSubtrees } from '../../src/run-lineage/queries/get-run-subtrees/get-run-subtrees.query';
import { GetRunsByIdHandler } from '../../src/run-lineage/queries/get-runs-by-id/get-runs-by-id.handler';
import { GetRunsById } from '../../src/run-lineage/queries/get-runs-by-id/get-runs-by-id.query';
import { GetSubtreeUsageHandler } from '../../src/run-lineage/queries/get-subtree-usage/get-subtree-usage.handler';
import { GetSubtreeUsage } from '../../src/run-lineage/queries/get-subtree-usage/get-subtree-usage.query';
import { ListRunChildrenHandler } from '../../src/run-lineage/queries/list-run-children/list-run-children.handler';
import { ListRunChildren } from '../../src/run-lineage/queries/list-run-children/list-run-children.query';
import { ListRunsHandler } from '../../src/run-lineage/queries/list-runs/list-runs.handler';
import { ListRuns } from '../../src/run-lineage/queries/list-runs/list-runs.query';
import { ancestorIdsOf, type RunRow } from '../../src/run-lineage/run-lineage';
import { RunForest, runRow, prepareRunInsert } from '../fixtures/run-forest';
import { SqlStatementCounter } from '../fixtures/sql-statement-counter';
import { makeTempDir } from '../fixtures/temp-dir';

const ids = (rows: RunRow[]) => rows.map((r) => r.runId);

describe('run lineage queries on a real SQLite file', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let db: Database.Database;
  let database: SqliteDatabase;
  const forest = new RunForest();
  // root -> a -> (a1 -> a1x, a2); root -> b; other root -> c
  const root = forest.root({
    agentId: 'lead',
    status: 'running',
    inputTokens: 10,
    outputTokens: 1,
    toolCalls: 1,
    durationMs: 100,
    startedAt: '2026-01-01T00:00:00.000Z',
  });
  const a = forest.child(root, { inputTokens: 20, outputTokens: 2, toolCalls: 2, durationMs: 200, startedAt: '2026-01-01T00:00:01.000Z' });
  const a1 = forest.child(a, { inputTokens: 40, outputTokens: 4, toolCalls: 4, durationMs: 400, status: 'failed', startedAt: '2026-01-01T00:00:02.000Z' });
  const a1x = forest.child(a1, { inputTokens: 80, outputTokens: 8, toolCalls: 8, durationMs: 800, startedAt: '2026-01-01T00:00:03.000Z' });
  const a2 = forest.child(a, { inputTokens: 160, outputTokens: 16, toolCalls: 16, durationMs: 1600, startedAt: '2026-01-01T00:00:04.000Z' });
  const b = forest.child(root, { inputTokens: 320, outputTokens: 32, toolCalls: 32, durationMs: 3200, startedAt: '2026-01-01T00:00:05.000Z' });
  const other = forest.root({ agentId: 'lead', inputTokens: 1000, startedAt: '2026-01-02T00:00:00.000Z' });
  const c = forest.child(other, { startedAt: '2026-01-02T00:00:01.000Z' });

  beforeAll(() => {
    tmp = makeTempDir();
    db = new Database(path.join(tmp.dir, 'runs.db'));
    applyPendingMigrations(db);
    database = new SqliteDatabase(db, 'runs.db');
    forest.insertInto(db);
  });
  afterAll(() => {
    db.close();
    tmp.cleanup();
  });

  it('reads a subtree in path order, bounded by depth and by count, for several roots in one statement per limit', async () => {
    const handler = new GetRunSubtreesHandler(database);
    const counter = new SqlStatementCounter(db);
    try {
      const { result, statements } = await counter.measure(() =>
        handler.execute(
          new GetRunSubtrees([
            { path: root.path, depth: root.depth, limit: 100 },
            { path: root.path, depth: root.depth, maxDepth: 1, limit: 100 },
            { path: a.path, depth: a.depth, limit: 2 },
            { path: other.path, depth: other.depth, limit: 100 },
          ]),
        ),
      );
      expect(statements).toBe(2); // limits 100 and 2
      expect(ids(result[0])).toEqual(ids([root, a, a1, a1x, a2, b]));
      expect(ids(result[1])).toEqual(ids([root, a, b]));
      expect(ids(result[2])).toEqual(ids([a, a1]));
      expect(ids(result[3])).toEqual(ids([other, c]));
      expect(result[0][0]).toEqual(root);
    } finally {
      counter.dispose();
    }
  });

  it('plans subtree reads as a range scan of the path index, never a scan of the table', () => {
    const plans = [
      `SELECT q.key, r.* FROM json_each('[{"from":"/x/","to":"/x/~","maxDepth":5}]') AS q, runs AS r
       WHERE r.rowid IN (SELECT x.rowid FROM runs AS x INDEXED BY runs_path_idx
                         WHERE x.path >= q.value ->> '$.from' AND x.path < q.value ->> '$.to' AND x.depth <= q.value ->> '$.maxDepth'
                         ORDER BY x.path LIMIT 10)`,
      `SELECT COUNT(*) FROM json_each('["/x/"]') AS p CROSS JOIN runs AS r INDEXED BY runs_path_idx WHERE r.path >= p.value AND r.path < p.value || '~' GROUP BY p.value`,
    ].map((sql) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join(' | '));
    for (const plan of plans) {
      expect(plan).toMatch(/SEARCH [rx] USING (COVERING )?INDEX runs_path_idx \(path>\? AND path<\?\)/);
      expect(plan).not.toMatch(/SCAN [rx]\b/);
    }
  });

  it('sums usage over each subtree, the run included, and gives zeros for an unknown path', async () => {
    const usage = await new GetSubtreeUsageHandler(database).execute(new GetSubtreeUsage([root.path, a1.path, b.path, '/nope/', root.path]));
    expect(usage[0]).toEqual({ runs: 6, inputTokens: 630, outputTokens: 63, toolCalls: 63, durationMs: 6300 });
    expect(usage[1]).toEqual({ runs: 2, inputTokens: 120, outputTokens: 12, toolCalls: 12, durationMs: 1200 });
    expect(usage[2]).toEqual({ runs: 1, inputTokens: 320, outputTokens: 32, toolCalls: 32, durationMs: 3200 });
    expect(usage[3]).toEqual({ runs: 0, inputTokens: 0, outputTokens: 0, toolCalls: 0, durationMs: 0 });
    expect(usage[4]).toEqual(usage[0]);
  });

  it('finds runs by id (ancestors from the path) and children per parent with a limit', async () => {
    const byId = await new GetRunsByIdHandler(database).execute(new GetRunsById([...ancestorIdsOf(a1x.path), 'missing']));
    expect(ids(byId).sort()).toEqual(ids([root, a, a1]).sort());
    expect(byId.find((r) => r.runId === root.runId)).toEqual(root);

    const children = await new ListRunChildrenHandler(database).execute(new ListRunChildren([root.runId, a.runId, a1x.runId], 1));
    expect(children.map(ids)).toEqual([[a.runId], [a1.runId], []]);
    const all = await new ListRunChildrenHandler(database).execute(new ListRunChildren([a.runId], 10));
    expect(ids(all[0])).toEqual(ids([a1, a2]));
  });

  it('filters runs by status, agent, root and start time', async () => {
    const list = new ListRunsHandler(database);
    expect(ids((await list.execute(new ListRuns({ status: 'failed' }, 10))).runs)).toEqual([a1.runId]);
    expect(ids((await list.execute(new ListRuns({ agentId: 'lead' }, 10))).runs)).toEqual(ids([other, root]));
    expect(ids((await list.execute(new ListRuns({ rootRunId: other.runId }, 10))).runs)).toEqual(ids([c, other]));
    const window = await list.execute(new ListRuns({ startedFrom: '2026-01-01T00:00:02.000Z', startedTo: '2026-01-01T00:00:05.000Z' }, 10));
    expect(ids(window.runs)).toEqual(ids([a2, a1x, a1]));
  });

  it('pages newest first without skipping or repeating while runs are inserted between pages', async () => {
    const list = new ListRunsHandler(database);
    const seen: string[] = [];
    let after: string | undefined;
    const insert = prepareRunInsert(db);
    for (let page = 0; ; page += 1) {
      const result = await list.execute(new ListRuns({}, 3, after));
      seen.push(...ids(result.runs));
      // A newer run and one with the same start as the cursor's (ties broken by id) arrive meanwhile.
      insert(runRow(undefined, { startedAt: new Date(Date.UTC(2027, 0, 1, 0, 0, page)).toISOString() }));
      if (!result.hasNextPage) break;
      after = result.endCursor ?? undefined;
    }
    expect(seen).toEqual(ids([c, other, b, a2, a1x, a1, a, root]));
    expect(new Set(seen).size).toBe(seen.length);
  });
});
