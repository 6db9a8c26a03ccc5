/**
 * Where a PostgreSQL append's time goes, counted rather than timed (the machine is shared, counts
 * are not): the statements node-postgres sends, grouped by shape, per append or per group commit.
 *
 *   node -r @swc-node/register bench/pg-round-trips.ts
 *
 * 1. One appender, one event per append: the PostgresEventStore and the peer emmett-postgresql.
 * 2. bench:app-traffic's traffic at 64 sessions in lockstep, with and without the app's inline
 *    projections: the statements each group commit sends under the append lock.
 * Each line: statements of that shape per append (or per commit), their mean time, the shape.
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { RunsProjection } from '../src/delegation/projections/runs.projection';
import { StreamSummariesProjection } from '../src/event-log/projections/stream-summaries.projection';
import { PostgresEventStore } from '../src/event-store/postgres/postgres-event-store';
import { ModelCallsProjection } from '../src/model-calls/projections/model-calls.projection';
import { InlineProjections } from '../src/projections/inline-projections';
import { ProjectionRegistry } from '../src/projections/projection-registry';
import { SessionsProjection } from '../src/sessions/projections/sessions.projection';
import { RoutedRequestsProjection } from '../src/tool-dispatch/projections/routed-requests.projection';
import { startPostgresServer } from '../test/fixtures/postgres-server';
import { type EmmettPostgres, requirePeer } from './peers';
import { recordRun } from './run-traffic';

type Query = (...args: unknown[]) => unknown;
const sent = new Map<string, { count: number; ms: number }>();
let counting = false;

/** Counts every query a pg Client sends (a named statement by its name), once it is answered. */
function countQueries(Client: { prototype: { query: Query } }): void {
  const query = Client.prototype.query;
  Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { name?: string; text?: string };
    const text = typeof first === 'string' ? first : (first.name ?? first.text ?? '?');
    const shape = text
      .replace(/'[^']*'/g, "'…'")
      .replace(/\d+/g, 'N')
      .replace(/\s+/g, ' ')
      .slice(0, 100);
    const started = performance.now();
    const result = query.apply(this, args) as Promise<unknown> | undefined;
    const answered = () => {
      const seen = sent.get(shape) ?? { count: 0, ms: 0 };
      seen.count += 1;
      seen.ms += performance.now() - started;
      sent.set(shape, seen);
    };
    if (counting && result && typeof result.then === 'function') result.then(answered, answered);
    return result;
  };
}

async function counted(label: string, per: string, work: () => Promise<number>): Promise<void> {
  sent.clear();
  counting = true;
  const started = performance.now();
  const units = await work();
  counting = false;
  console.log(`${label}: ${(performance.now() - started).toFixed(0)} ms`);
  for (const [shape, { count, ms }] of [...sent].sort((a, b) => b[1].count - a[1].count)) {
    console.log(`  ${(count / units).toFixed(2).padStart(6)} per ${per}  ${(ms / count).toFixed(2).padStart(6)} ms  ${shape}`);
  }
}

const EVENT = { type: 'BenchEventRecorded', data: { sessionId: 'session-3f6b2c1e', agent: 'copilot-reviewer', durationMs: 1234, ok: true } };
const APPENDS = 400;

async function main(): Promise<void> {
  countQueries(pg.Client);
  const emmett = requirePeer<EmmettPostgres>('@event-driven-io/emmett-postgresql');
  // The peer's own node-postgres, when it has one.
  const peerPg = requirePeer<typeof pg>('pg');
  if (peerPg.Client !== pg.Client) countQueries(peerPg.Client);
  const server = await startPostgresServer();
  try {
    const store = new PostgresEventStore({ connectionString: await server.createDatabase('store'), poolSize: 8 });
    await store.migrate();
    await counted(`PostgresEventStore, 1 appender, ${APPENDS} appends`, 'append', async () => {
      for (let v = 0; v < APPENDS;) v = (await store.append('one', v, [EVENT])).nextExpectedVersion;
      return APPENDS;
    });
    await store.close();
    const peer = emmett.getPostgreSQLEventStore(await server.createDatabase('emmett'));
    await peer.schema.migrate();
    await counted(`emmett-postgresql, 1 appender, ${APPENDS} appends`, 'append', async () => {
      for (let v = 0; v < APPENDS; v++)
        await peer.appendToStream('one', [EVENT], { expectedStreamVersion: v === 0 ? 'STREAM_DOES_NOT_EXIST' : BigInt(v) });
      return APPENDS;
    });
    await peer.close();
    for (const withProjections of [false, true]) {
      const registry = new ProjectionRegistry();
      const projections = [
        new SessionsProjection(),
        new RunsProjection(),
        new RoutedRequestsProjection(),
        new StreamSummariesProjection(),
        new ModelCallsProjection(),
      ];
      if (withProjections) projections.forEach((projection) => registry.register(projection));
      const traffic = new PostgresEventStore({
        connectionString: await server.createDatabase(`traffic${String(withProjections)}`),
        poolSize: 8,
        inlineProjections: [new InlineProjections(registry)],
      });
      await traffic.migrate();
      await Promise.all(Array.from({ length: 64 }, (_, s) => recordRun(traffic, `warmup-${s}`, { modelCalls: true })));
      const label = withProjections ? "app's inline projections" : 'no projections';
      await counted(`app traffic, 64 sessions x 2 runs, ${label}`, 'commit', async () => {
        const before = traffic.stats().commits;
        await Promise.all(
          Array.from({ length: 64 }, async (_, s) =>
            [0, 1].reduce((ran, r) => ran.then(() => recordRun(traffic, `run-${s}-${r}`, { modelCalls: true })), Promise.resolve(0)),
          ),
        );
        return traffic.stats().commits - before;
      });
      await traffic.close();
    }
  } finally {
    server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
