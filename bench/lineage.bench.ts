/**
 * Lineage queries on a small and a big forest of runs: the materialized-path index should make a
 * 100-run subtree (and a 20-deep ancestor chain) cost about the same among 1,000,000 runs as among 10,000.
 *
 *   npm run bench:lineage
 *
 * In one run: two SQLite files are filled with forests of 10,000 and 1,000,000 runs (trees of random
 * size and shape, depth at most 20, direct prepared INSERTs into `runs` in one transaction, as the
 * delegation engine's projection would leave them). Each holds the same planted tree: a 10-run chain
 * down to a run whose subtree has exactly 100 runs reaching depth 20, placed halfway through the inserts.
 * The real query handlers then read that subtree (GetRunSubtrees) and the ancestors of its deepest
 * run (ancestor ids from the path, GetRunsById), many times each; the median per query is printed for
 * each forest with the big/small ratio (target: at most 2x). Last, the real app is started on each file
 * and the GraphQL subtree-with-usage query is sent over HTTP while the SQL statements are counted.
 *
 * Nothing is asserted: timings depend on the machine; the target is printed beside the ratio.
 */
import 'reflect-metadata';
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createSwitchboardApp } from '../src/bootstrap';
import { loadConfig } from '../src/config/switchboard-config';
import { applyPendingMigrations } from '../src/database/migrations';
import { SqliteDatabase } from '../src/database/sqlite-database';
import { GetRunSubtreesHandler } from '../src/run-lineage/queries/get-run-subtrees/get-run-subtrees.handler';
import { GetRunSubtrees } from '../src/run-lineage/queries/get-run-subtrees/get-run-subtrees.query';
import { GetRunsByIdHandler } from '../src/run-lineage/queries/get-runs-by-id/get-runs-by-id.handler';
import { GetRunsById } from '../src/run-lineage/queries/get-runs-by-id/get-runs-by-id.query';
import { ancestorIdsOf, type RunRow } from '../src/run-lineage/run-lineage';
import { prepareRunInsert, runRow } from '../test/fixtures/run-forest';
import { SqlStatementCounter } from '../test/fixtures/sql-statement-counter';

const FORESTS = [10_000, 1_000_000] as const;
const MAX_DEPTH = 20;
const SUBTREE_SIZE = 100;
const ITERATIONS = 2000;
const WARMUP = 200;
const TARGET_RATIO = 2;

/** Deterministic, so both forests have the same shapes where they overlap (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Planted {
  subtreeRoot: RunRow;
  deepest: RunRow;
}

/**
 * A random tree: each run after the root hangs below the previous one half of the time (chains reach
 * depth 20) or below a random earlier run that is not yet 20 deep.
 */
function* randomTree(size: number, next: () => number): Generator<RunRow> {
  const tree: RunRow[] = [];
  for (let i = 0; i < size; i += 1) {
    let parent: RunRow | undefined;
    if (i > 0) {
      parent = next() < 0.5 ? tree[i - 1] : tree[Math.floor(next() * i)];
      while (parent.depth >= MAX_DEPTH) parent = tree[Math.floor(next() * i)];
      if (parent.depth >= MAX_DEPTH) parent = tree[0];
    }
    const row = runRow(parent, { inputTokens: 100 + i, outputTokens: 10, toolCalls: 1, durationMs: 1000 });
    tree.push(row);
    yield row;
  }
}

/** The planted tree: a chain to depth 10, then a subtree of exactly 100 runs reaching depth 20. */
function plantedTree(): { rows: RunRow[]; planted: Planted } {
  const rows: RunRow[] = [runRow(undefined)];
  while (rows.length < 10) rows.push(runRow(rows[rows.length - 1]));
  const subtreeRoot = runRow(rows[rows.length - 1]);
  const subtree = [subtreeRoot];
  // 10 levels of a chain (depth 11..20), the other 89 runs spread below it.
  while (subtree.length < 11) subtree.push(runRow(subtree[subtree.length - 1]));
  const next = random(7);
  while (subtree.length < SUBTREE_SIZE) {
    const candidates = subtree.filter((r) => r.depth < MAX_DEPTH);
    subtree.push(runRow(candidates[Math.floor(next() * candidates.length)]));
  }
  const deepest = subtree.reduce((a, b) => (b.depth > a.depth ? b : a));
  return { rows: [...rows, ...subtree], planted: { subtreeRoot, deepest } };
}

function buildForest(file: string, total: number): Planted {
  const db = new Database(file);
  applyPendingMigrations(db);
  // One transaction, no journal, no fsync: a scratch file filled once.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const insert = prepareRunInsert(db);
  const next = random(42);
  const plant = plantedTree();
  let written = 0;
  let plantedDone = false;
  db.transaction(() => {
    while (written < total) {
      if (!plantedDone && written >= total / 2) {
        plant.rows.forEach(insert);
        written += plant.rows.length;
        plantedDone = true;
        continue;
      }
      const size = Math.min(total - written, 1 + Math.floor(next() * 199));
      for (const row of randomTree(size, next)) insert(row);
      written += size;
    }
  })();
  db.pragma('journal_mode = WAL');
  db.close();
  return plant.planted;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeQuery(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARMUP; i += 1) await run();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i += 1) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return median(samples) * 1000; // µs
}

interface ForestResult {
  runs: number;
  buildSeconds: number;
  subtreeUs: number;
  ancestorsUs: number;
  graphqlStatements: number;
  graphqlMs: number;
}

const GRAPHQL_SUBTREE = `query ($id: ID!) { run(id: $id) { subtree { runId depth status parent { runId }
  usage { own { inputTokens outputTokens totalTokens toolCalls durationMs } subtree { runs inputTokens outputTokens totalTokens toolCalls durationMs } } } } }`;

async function measureForest(dir: string, total: number): Promise<ForestResult> {
  const file = path.join(dir, `forest-${total}.db`);
  const buildStart = performance.now();
  const planted = buildForest(file, total);
  const buildSeconds = (performance.now() - buildStart) / 1000;

  const db = new Database(file);
  const database = new SqliteDatabase(db, file);
  const subtrees = new GetRunSubtreesHandler(database.readModels);
  const byId = new GetRunsByIdHandler(database.readModels);
  const { subtreeRoot, deepest } = planted;
  const subtreeQuery = new GetRunSubtrees([{ path: subtreeRoot.path, depth: subtreeRoot.depth, limit: 1000 }]);
  const ancestorsQuery = new GetRunsById(ancestorIdsOf(deepest.path));
  const [subtree] = await subtrees.execute(subtreeQuery);
  const ancestors = await byId.execute(ancestorsQuery);
  if (subtree.length !== SUBTREE_SIZE || ancestors.length !== MAX_DEPTH) {
    throw new Error(`planted tree read back wrong: ${subtree.length} subtree runs, ${ancestors.length} ancestors`);
  }
  const subtreeUs = await timeQuery(() => subtrees.execute(subtreeQuery));
  const ancestorsUs = await timeQuery(() => byId.execute(ancestorsQuery));
  db.close();

  // The real app on the same file: the GraphQL query over HTTP, its SQL statements counted.
  const config = { ...loadConfig({ SWITCHBOARD_DB: file, LOG_LEVEL: 'silent', SWITCHBOARD_DB_INTEGRITY_CHECK: 'false' }), port: 0, host: '127.0.0.1' };
  const app = await createSwitchboardApp(config);
  await app.listen(0, '127.0.0.1');
  try {
    const { port } = app.getHttpServer().address() as AddressInfo;
    const counter = new SqlStatementCounter(app.get(SqliteDatabase).connection);
    const send = () =>
      fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: GRAPHQL_SUBTREE, variables: { id: subtreeRoot.runId } }),
      }).then((r) => r.json() as Promise<{ data?: { run: { subtree: unknown[] } }; errors?: unknown }>);
    await send(); // warm
    const start = performance.now();
    const { result, statements } = await counter.measure(send);
    const graphqlMs = performance.now() - start;
    counter.dispose();
    if (result.errors || result.data?.run.subtree.length !== SUBTREE_SIZE) throw new Error(`GraphQL query failed: ${JSON.stringify(result.errors)}`);
    return { runs: total, buildSeconds, subtreeUs, ancestorsUs, graphqlStatements: statements, graphqlMs };
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-lineage-'));
  try {
    console.log('Lineage benchmark: 100-run subtree and 20-deep ancestors, small vs big forest');
    console.log(
      `  node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model.trim()}, sqlite ${String(new Database(':memory:').prepare('SELECT sqlite_version()').pluck().get())}`,
    );
    console.log(`  median of ${ITERATIONS} queries after ${WARMUP} warm-up ones, through the real query handlers`);
    console.log('');
    const results: ForestResult[] = [];
    for (const total of FORESTS) {
      process.stdout.write(`building and measuring a forest of ${total.toLocaleString('en-US')} runs...`);
      const result = await measureForest(dir, total);
      process.stdout.write(` built in ${result.buildSeconds.toFixed(1)} s\n`);
      results.push(result);
    }
    console.log('');
    console.log('forest runs   subtree µs  ancestors µs  GraphQL subtree+usage: SQL statements, ms');
    for (const r of results) {
      console.log(
        `${r.runs.toLocaleString('en-US').padStart(11)}  ${r.subtreeUs.toFixed(1).padStart(10)}  ${r.ancestorsUs.toFixed(1).padStart(12)}  ${String(r.graphqlStatements).padStart(22)}, ${r.graphqlMs.toFixed(1)}`,
      );
    }
    const [small, big] = results;
    const verdict = (ratio: number) => `${ratio.toFixed(2)}x   target <= ${TARGET_RATIO}x: ${ratio <= TARGET_RATIO ? 'met' : 'MISSED'}`;
    console.log('');
    console.log(`subtree   big/small: ${verdict(big.subtreeUs / small.subtreeUs)}`);
    console.log(`ancestors big/small: ${verdict(big.ancestorsUs / small.ancestorsUs)}`);
    console.log(`GraphQL statements for the ${SUBTREE_SIZE}-run subtree with usage: ${small.graphqlStatements} (small), ${big.graphqlStatements} (big)`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
