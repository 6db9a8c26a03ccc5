import { GetRunSubtreesHandler } from '../../src/run-lineage/queries/get-run-subtrees/get-run-subtrees.handler';
import { GetRunSubtrees } from '../../src/run-lineage/queries/get-run-subtrees/get-run-subtrees.query';
import { GetRunsByIdHandler } from '../../src/run-lineage/queries/get-runs-by-id/get-runs-by-id.handler';
import { GetRunsById } from '../../src/run-lineage/queries/get-runs-by-id/get-runs-by-id.query';
import { GetSubtreeSpendHandler } from '../../src/run-lineage/queries/get-subtree-spend/get-subtree-spend.handler';
import { GetSubtreeSpend } from '../../src/run-lineage/queries/get-subtree-spend/get-subtree-spend.query';
import { GetSubtreeUsageHandler } from '../../src/run-lineage/queries/get-subtree-usage/get-subtree-usage.handler';
import { GetSubtreeUsage } from '../../src/run-lineage/queries/get-subtree-usage/get-subtree-usage.query';
import { ListRunChildrenHandler } from '../../src/run-lineage/queries/list-run-children/list-run-children.handler';
import { ListRunChildren } from '../../src/run-lineage/queries/list-run-children/list-run-children.query';
import { ListRunsHandler } from '../../src/run-lineage/queries/list-runs/list-runs.handler';
import { ListRuns } from '../../src/run-lineage/queries/list-runs/list-runs.query';
import { ListThreadRequestsHandler } from '../../src/tool-dispatch/queries/list-thread-requests/list-thread-requests.handler';
import { ListThreadRequests } from '../../src/tool-dispatch/queries/list-thread-requests/list-thread-requests.query';
import { ListThreadSubagentsHandler } from '../../src/sessions/queries/list-thread-subagents/list-thread-subagents.handler';
import { ListThreadSubagents } from '../../src/sessions/queries/list-thread-subagents/list-thread-subagents.query';
import { ancestorIdsOf, type RunRow } from '../../src/run-lineage/run-lineage';
import { LineageLookup } from '../../src/run-lineage/lineage-lookup';
import { RunsReadModel } from '../../src/run-lineage/runs-read-model';
import type { ReadModelDatabase } from '../../src/database/read-model-database';
import { queryPlan, type RecordedStatement, recordStatements } from '../fixtures/read-model-statements';
import { type ReadModelTarget, readModelTargets } from '../fixtures/read-model-targets';
import { insertRuns, RunForest, runRow } from '../fixtures/run-forest';

jest.setTimeout(120_000);

const ids = (rows: RunRow[]) => rows.map((r) => r.runId);

/**
 * On SQLite and on PostgreSQL, the latter under a natural-language collation where '/' and '-' weigh
 * nothing (read-model-targets): lineage path ranges hold because runs.path is COLLATE "C".
 */
const targets = readModelTargets();

/** The statement reads runs through a range of runs_path_idx and never scans the table. */
async function expectPathRangeScan(db: ReadModelDatabase, statement: RecordedStatement): Promise<void> {
  const plan = await queryPlan(db, statement);
  if (db.dialect === 'sqlite') {
    expect(plan).toMatch(/SEARCH runs USING (COVERING )?INDEX runs_path_idx \(path>\? AND path<\?\)/);
    expect(plan).not.toMatch(/SCAN runs\b/);
  } else {
    expect(plan).toMatch(/(Index (Only )?Scan using runs_path_idx on runs|Bitmap Index Scan on runs_path_idx)[\s\S]*Index Cond: \(\(path >= /);
    expect(plan).not.toMatch(/Seq Scan on runs/);
  }
}

describe.each(targets)('run lineage queries on %s', (_name, openTarget) => {
  let target: ReadModelTarget;
  let db: ReadModelDatabase;
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
    launchedAt: '2026-01-01T00:00:00.000Z',
  });
  const a = forest.child(root, { inputTokens: 20, outputTokens: 2, toolCalls: 2, durationMs: 200, startedAt: '2026-01-01T00:00:01.000Z' });
  const a1 = forest.child(a, { inputTokens: 40, outputTokens: 4, toolCalls: 4, durationMs: 400, status: 'failed', startedAt: '2026-01-01T00:00:02.000Z' });
  const a1x = forest.child(a1, { inputTokens: 80, outputTokens: 8, toolCalls: 8, durationMs: 800, startedAt: '2026-01-01T00:00:03.000Z' });
  const a2 = forest.child(a, { inputTokens: 160, outputTokens: 16, toolCalls: 16, durationMs: 1600, startedAt: '2026-01-01T00:00:04.000Z' });
  const b = forest.child(root, { inputTokens: 320, outputTokens: 32, toolCalls: 32, durationMs: 3200, startedAt: '2026-01-01T00:00:05.000Z' });
  const other = forest.root({ agentId: 'lead', inputTokens: 1000, startedAt: '2026-01-02T00:00:00.000Z' });
  const c = forest.child(other, { startedAt: '2026-01-02T00:00:01.000Z' });

  beforeAll(async () => {
    target = await openTarget();
    db = target.db;
    await forest.insertWith(db);
  });
  afterAll(() => target?.close());

  it('reads a subtree in path order, bounded by depth and by count, for several roots in one statement per limit', async () => {
    const handler = new GetRunSubtreesHandler(db);
    const { result, statements } = await recordStatements(db, () =>
      handler.execute(
        new GetRunSubtrees([
          { path: root.path, depth: root.depth, limit: 100 },
          { path: root.path, depth: root.depth, maxDepth: 1, limit: 100 },
          { path: a.path, depth: a.depth, limit: 2 },
          { path: other.path, depth: other.depth, limit: 100 },
        ]),
      ),
    );
    expect(statements).toHaveLength(2); // limits 100 and 2
    expect(ids(result[0])).toEqual(ids([root, a, a1, a1x, a2, b]));
    expect(ids(result[1])).toEqual(ids([root, a, b]));
    expect(ids(result[2])).toEqual(ids([a, a1]));
    expect(ids(result[3])).toEqual(ids([other, c]));
    expect(result[0][0]).toEqual(root);
    for (const statement of statements) await expectPathRangeScan(db, statement);
  });

  it('sums usage over each subtree, the run included, in one range-scan statement, zeros for an unknown path', async () => {
    const handler = new GetSubtreeUsageHandler(db);
    const { result: usage, statements } = await recordStatements(db, () =>
      handler.execute(new GetSubtreeUsage([root.path, a1.path, b.path, '/nope/', root.path])),
    );
    expect(usage[0]).toEqual({ runs: 6, inputTokens: 630, outputTokens: 63, toolCalls: 63, durationMs: 6300 });
    expect(usage[1]).toEqual({ runs: 2, inputTokens: 120, outputTokens: 12, toolCalls: 12, durationMs: 1200 });
    expect(usage[2]).toEqual({ runs: 1, inputTokens: 320, outputTokens: 32, toolCalls: 32, durationMs: 3200 });
    expect(usage[3]).toEqual({ runs: 0, inputTokens: 0, outputTokens: 0, toolCalls: 0, durationMs: 0 });
    expect(usage[4]).toEqual(usage[0]);
    expect(statements).toHaveLength(1);
    await expectPathRangeScan(db, statements[0]);
  });

  it('sums spend over each subtree, a running run counting its launch up to now, in one range-scan statement', async () => {
    const handler = new GetSubtreeSpendHandler(db);
    const before = Date.now();
    const { result: spend, statements } = await recordStatements(db, () => handler.execute(new GetSubtreeSpend([a.path, root.path, '/nope/'])));
    const after = Date.now();
    expect(spend[0]).toEqual({ runs: 4, tokens: 330, toolCalls: 30, durationMs: 3000 });
    expect(spend[2]).toEqual({ runs: 0, tokens: 0, toolCalls: 0, durationMs: 0 });
    // root is running since its launch: its time so far is counted in whole milliseconds.
    const { durationMs, ...rest } = spend[1];
    expect(rest).toEqual({ runs: 6, tokens: 693, toolCalls: 63 });
    const launched = Date.parse(root.launchedAt);
    expect(durationMs).toBeGreaterThanOrEqual(6300 + before - launched);
    expect(durationMs).toBeLessThanOrEqual(6300 + after - launched);
    expect(Number.isInteger(durationMs)).toBe(true);
    expect(statements).toHaveLength(1);
    await expectPathRangeScan(db, statements[0]);
  });

  it('finds runs by id (ancestors from the path) and children per parent with a limit per parent', async () => {
    const byId = await new GetRunsByIdHandler(db).execute(new GetRunsById([...ancestorIdsOf(a1x.path), 'missing']));
    expect(ids(byId).sort()).toEqual(ids([root, a, a1]).sort());
    expect(byId.find((r) => r.runId === root.runId)).toEqual(root);

    const children = new ListRunChildrenHandler(db);
    const { result: first, statements } = await recordStatements(db, () => children.execute(new ListRunChildren([root.runId, a.runId, a1x.runId], 1)));
    expect(first.map(ids)).toEqual([[a.runId], [a1.runId], []]);
    expect(statements).toHaveLength(1);
    const all = await children.execute(new ListRunChildren([a.runId, root.runId], 10));
    expect(all.map(ids)).toEqual([ids([a1, a2]), ids([a, b])]);
    expect(all[1][0]).toEqual(a);
  });

  it('filters runs by status, agent, root and start time', async () => {
    const list = new ListRunsHandler(db);
    expect(ids((await list.execute(new ListRuns({ status: 'failed' }, 10))).runs)).toEqual([a1.runId]);
    expect(ids((await list.execute(new ListRuns({ agentId: 'lead' }, 10))).runs)).toEqual(ids([other, root]));
    expect(ids((await list.execute(new ListRuns({ rootRunId: other.runId }, 10))).runs)).toEqual(ids([c, other]));
    const window = await list.execute(new ListRuns({ startedFrom: '2026-01-01T00:00:02.000Z', startedTo: '2026-01-01T00:00:05.000Z' }, 10));
    expect(ids(window.runs)).toEqual(ids([a2, a1x, a1]));
  });

  it('reads the CLI-native sub-agents and routed requests of several threads in one statement each, in thread order', async () => {
    const launch = (parentSessionId: string, toolCallId: string, startedAt: string) => ({
      parentSessionId,
      toolCallId,
      agentName: 'explore',
      childSessionId: `child-${toolCallId}`,
      status: 'completed',
      error: null,
      startedAt,
      endedAt: null,
      totalTokens: 3_000_000_000,
      totalToolCalls: 2,
      durationMs: 5,
    });
    await db.orm
      .insert(db.tables.subagentInstances)
      .values([
        launch(a.threadId, 't2', '2026-01-01T00:00:02.000Z'),
        launch(a.threadId, 't1', '2026-01-01T00:00:01.000Z'),
        launch(b.threadId, 't3', '2026-01-01T00:00:03.000Z'),
      ]);
    const request = (globalPosition: number, parentSessionId: string, kind: string) => ({
      globalPosition,
      parentSessionId,
      childSessionId: null,
      agentName: null,
      kind,
      toolName: 'grep',
      arguments: '{"q":"x"}',
      result: 'not json',
      outcome: 'ok',
      reason: null,
      latencyMs: 7,
      recordedAt: '2026-01-01T00:00:00.000Z',
    });
    await db.orm
      .insert(db.tables.routedRequests)
      .values([request(12, a.threadId, 'tool_call.routed'), request(11, a.threadId, 'tool_call.routed'), request(13, a.threadId, 'permission.decided')]);

    const subagents = await new ListThreadSubagentsHandler(db).execute(new ListThreadSubagents([b.threadId, 'nobody', a.threadId]));
    expect(subagents.map((rows) => rows.map((r) => r.toolCallId))).toEqual([['t3'], [], ['t1', 't2']]);
    expect(subagents[0][0].totalTokens).toBe(3_000_000_000);

    const requests = await new ListThreadRequestsHandler(db).execute(new ListThreadRequests([a.threadId, b.threadId], ['tool_call.routed']));
    expect(requests.map((rows) => rows.map((r) => r.position))).toEqual([[11, 12], []]);
    expect(requests[0][0]).toMatchObject({ arguments: { q: 'x' }, result: 'not json', latencyMs: 7 });
  });

  // Last: it adds runs.
  it('pages newest first without skipping or repeating while runs are inserted between pages', async () => {
    const list = new ListRunsHandler(db);
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; ; page += 1) {
      const result = await list.execute(new ListRuns({}, 3, after));
      seen.push(...ids(result.runs));
      // A newer run arrives meanwhile: it sorts before the cursor, so no later page shows it.
      await insertRuns(db, [runRow(undefined, { startedAt: new Date(Date.UTC(2027, 0, 1, 0, 0, page)).toISOString() })]);
      if (!result.hasNextPage) break;
      after = result.endCursor ?? undefined;
    }
    expect(seen).toEqual(ids([c, other, b, a2, a1x, a1, a, root]));
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe.each(targets)("an A2A agent's tasks (runs listed by A2A context) on %s", (_name, openTarget) => {
  let target: ReadModelTarget;
  let db: ReadModelDatabase;
  const forest = new RunForest();
  const first = forest.root({
    agentId: 'reviewer',
    a2aContextId: 'ctx-1',
    status: 'completed',
    startedAt: '2026-02-01T00:00:00.000Z',
    updatedAt: '2026-02-01T00:01:00.000Z',
  });
  const second = forest.root({
    agentId: 'reviewer',
    a2aContextId: 'ctx-1',
    status: 'running',
    startedAt: '2026-02-01T00:02:00.000Z',
    updatedAt: '2026-02-01T00:02:00.000Z',
  });
  const elsewhere = forest.root({
    agentId: 'reviewer',
    a2aContextId: 'ctx-2',
    status: 'stopped',
    startedAt: '2026-02-01T00:03:00.000Z',
    updatedAt: '2026-02-01T00:04:00.000Z',
  });
  // A run of the same agent no A2A client started, and a child of an A2A task: neither is a task.
  const overRest = forest.root({ agentId: 'reviewer', startedAt: '2026-02-01T00:05:00.000Z' });
  forest.child(first, { agentId: 'reviewer', startedAt: '2026-02-01T00:00:30.000Z' });

  beforeAll(async () => {
    target = await openTarget();
    db = target.db;
    await forest.insertWith(db);
  });
  afterAll(() => target?.close());

  it('lists the tasks of one context or of every context, by status and by last change, with the total count', async () => {
    const list = new ListRunsHandler(db);
    expect(ids((await list.execute(new ListRuns({ a2aContextId: 'ctx-1' }, 10))).runs)).toEqual(ids([second, first]));
    const all = await list.execute(new ListRuns({ agentId: 'reviewer', startedOverA2a: true }, 2, undefined, true));
    expect(ids(all.runs)).toEqual(ids([elsewhere, second]));
    expect(all).toMatchObject({ hasNextPage: true, totalCount: 3 });
    const rest = await list.execute(new ListRuns({ agentId: 'reviewer', startedOverA2a: true }, 2, all.endCursor ?? undefined, true));
    expect(ids(rest.runs)).toEqual(ids([first]));
    expect(rest.totalCount).toBe(3);
    expect(ids((await list.execute(new ListRuns({ startedOverA2a: true, statuses: ['completed', 'stopped'] }, 10))).runs)).toEqual(
      ids([elsewhere, first]),
    );
    expect(ids((await list.execute(new ListRuns({ startedOverA2a: true, updatedFrom: '2026-02-01T00:02:00.000Z' }, 10))).runs)).toEqual(
      ids([elsewhere, second]),
    );
    expect(ids((await list.execute(new ListRuns({ agentId: 'reviewer' }, 10))).runs)).toContain(overRest.runId);
  });
});

describe.each(targets)("the delegation engine's reads (RunsReadModel) on %s", (_name, openTarget) => {
  let target: ReadModelTarget;
  let db: ReadModelDatabase;
  let runs: RunsReadModel;
  const forest = new RunForest();
  const launchedAt = '2026-01-01T00:00:00.000Z';
  const warned = JSON.stringify([{ limit: 'max_tokens', allowed: 100, used: 80 }]);
  // Session s1 started r1 (running, budgeted) -> r1a (running, budgeted) -> r1a1 (running); r1 -> r1b (completed).
  const r1 = forest.root({
    ownerThreadId: 's1',
    parentThreadId: 's1',
    depth: 1,
    status: 'running',
    budget: '{"max_tokens":100}',
    budgetWarnings: warned,
    inputTokens: 10,
    outputTokens: 5,
    toolCalls: 1,
    durationMs: 1000,
    launchedAt,
  });
  const r1a = forest.child(r1, { status: 'running', budget: '{"max_tool_calls":9}', inputTokens: 20, toolCalls: 2, launchedAt });
  const r1a1 = forest.child(r1a, { status: 'running', inputTokens: 40, launchedAt });
  const r1b = forest.child(r1, { status: 'completed', inputTokens: 80, durationMs: 500, endedAt: '2026-01-01T00:00:09.000Z' });
  // More of s1's: an ended background run and an interrupted one it was not told of, one it was told of.
  const ended = forest.root({ ownerThreadId: 's1', depth: 1, background: true, status: 'completed', inputTokens: 1, endedAt: '2026-01-01T00:00:03.000Z' });
  const interrupted = forest.root({ ownerThreadId: 's1', depth: 1, status: 'interrupted', endedAt: '2026-01-01T00:00:02.000Z' });
  forest.root({ ownerThreadId: 's1', depth: 1, background: true, status: 'failed', ownerNotified: true, endedAt: '2026-01-01T00:00:01.000Z' });
  // Not a session's: the API's running run, and a session with nothing running.
  const apiRun = forest.root({ status: 'running', budget: '{"max_runs":2}', budgetWarnings: warned, budgetWarningsTold: 1 });
  forest.root({ ownerThreadId: 's2', depth: 1, status: 'stopped', endedAt: '2026-01-01T00:00:04.000Z' });

  beforeAll(async () => {
    target = await openTarget();
    db = target.db;
    runs = new RunsReadModel(db);
    await forest.insertWith(db);
  });
  afterAll(() => target?.close());

  it('finds a run, or nothing', async () => {
    expect(await runs.find(r1a.runId)).toEqual(r1a);
    expect(await runs.find('missing')).toBeUndefined();
  });

  it("reads a subtree's ids (one range scan of the path index) and its running runs, deepest first", async () => {
    const { result, statements } = await recordStatements(db, () => runs.subtreeIds(r1.path));
    expect(result.sort()).toEqual(ids([r1, r1a, r1a1, r1b]).sort());
    await expectPathRangeScan(db, statements[0]);
    expect(await runs.runningSubtreeIds(r1.path)).toEqual(ids([r1a1, r1a, r1]));
    expect(await runs.runningSubtreeIds(r1b.path)).toEqual([]);
  });

  it('counts and lists running runs, per owner and per status', async () => {
    expect((await runs.runningIds()).sort()).toEqual(ids([r1, r1a, r1a1, apiRun]).sort());
    expect(await runs.runningOwnedBy('s1')).toBe(1);
    expect(await runs.runningOwnedBy(r1.threadId)).toBe(1);
    expect(await runs.runningOwnedBy('nobody')).toBe(0);
    expect(await runs.runningRootsOwnedBy('s1')).toEqual([r1.runId]);
    expect(await runs.sessionsWithRunningRuns()).toEqual(['s1']);
    const byStatus = Object.fromEntries((await runs.countByStatus()).map(({ status, count }) => [status, count]));
    expect(byStatus).toEqual({ running: 4, completed: 2, interrupted: 1, failed: 1, stopped: 1 });
  });

  it("lists the ends a session's agent was not told of, oldest end first, and the budget warnings it was not told of", async () => {
    expect(ids(await runs.unnotifiedEndsOwnedBy('s1'))).toEqual(ids([interrupted, ended]));
    expect(ids(await runs.untoldBudgetWarningsOwnedBy('s1'))).toEqual([r1.runId]);
    expect(await runs.untoldBudgetWarningsOwnedBy('api')).toEqual([]); // one warning, told
  });

  it('sums what a subtree and a session spent, running runs counting their launch up to now', async () => {
    const now = Date.parse(launchedAt) + 60_000;
    const { result, statements } = await recordStatements(db, () => runs.subtreeSpend(r1.path, now));
    expect(result).toEqual({ runs: 4, tokens: 155, toolCalls: 3, durationMs: 1500 + 3 * 60_000 });
    await expectPathRangeScan(db, statements[0]);
    expect(await runs.subtreeSpend(r1a.path, now)).toEqual({ runs: 2, tokens: 60, toolCalls: 2, durationMs: 2 * 60_000 });
    expect(await runs.sessionSpend('s1', now)).toEqual({ runs: 7, tokens: 156, toolCalls: 3, durationMs: 1500 + 3 * 60_000 });
    expect(await runs.sessionSpend('nobody', now)).toEqual({ runs: 0, tokens: 0, toolCalls: 0, durationMs: 0 });
    // The subtrees a session's budget covers (their model calls' cost is summed per root path).
    const roots = await runs.rootPathsOwnedBy('s1');
    expect(roots).toHaveLength(4);
    expect(roots).toEqual(expect.arrayContaining([r1.path, ended.path, interrupted.path]));
    expect(await runs.rootPathsOwnedBy('nobody')).toEqual([]);
  });

  it('picks the budgeted runs among ids, and the running budgeted ones', async () => {
    expect(ids(await runs.budgetedAmong([r1.runId, r1a.runId, r1a1.runId, 'missing'])).sort()).toEqual(ids([r1, r1a]).sort());
    expect(await runs.budgetedAmong([])).toEqual([]);
    expect(ids(await runs.runningBudgeted()).sort()).toEqual(ids([r1, r1a, apiRun]).sort());
  });
});

describe.each(targets)('the one lineage lookup (LineageLookup) on %s', (_name, openTarget) => {
  let target: ReadModelTarget;
  let lineages: LineageLookup;
  const forest = new RunForest();
  // Session s1's agent started lead -> mid -> leaf; the API started api-root.
  const lead = forest.root({ agentId: 'lead', ownerThreadId: 's1', parentThreadId: 's1', depth: 1 });
  const mid = forest.child(lead, { agentId: 'mid' });
  const leaf = forest.child(mid, { agentId: 'leaf' });
  const apiRoot = forest.root({ agentId: 'solo' });

  beforeAll(async () => {
    target = await openTarget();
    lineages = new LineageLookup(target.db);
    await forest.insertWith(target.db);
  });
  afterAll(() => target?.close());

  it("names a run's root, its agents root first and the session that started the root, from the run or its thread", async () => {
    const expected = {
      runId: leaf.runId,
      agentId: 'leaf',
      rootRunId: lead.runId,
      parentRunId: mid.runId,
      path: leaf.path,
      ownerThreadId: mid.threadId,
      agentPath: ['lead', 'mid', 'leaf'],
      rootOwnerSessionId: 's1',
    };
    expect(await lineages.lineageOf(leaf.runId)).toEqual(expected);
    expect(await lineages.lineageOfSession(leaf.threadId)).toEqual(expected);
    expect(await lineages.placeOfSession(leaf.threadId)).toEqual({
      runId: leaf.runId,
      agentId: 'leaf',
      rootRunId: lead.runId,
      parentRunId: mid.runId,
      path: leaf.path,
      ownerThreadId: mid.threadId,
    });
  });

  it('has no session for a run the API started, and nothing for a session that is no run thread or an unknown run', async () => {
    const api = await lineages.lineageOf(apiRoot.runId);
    expect(api).toMatchObject({ rootRunId: apiRoot.runId, agentPath: ['solo'] });
    expect(api).not.toHaveProperty('rootOwnerSessionId');
    expect(await lineages.lineageOfSession('s1')).toBeUndefined();
    expect(await lineages.placeOfSession('sub-agent-missing')).toBeUndefined();
    expect(await lineages.lineageOf('missing')).toBeUndefined();
  });
});
