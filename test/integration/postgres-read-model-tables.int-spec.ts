import { is } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { Client } from 'pg';
import * as pgSchema from '../../src/database/schema-pg';
import { openPostgresEventStore } from '../fixtures/postgres-event-store-fixture';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';

jest.setTimeout(120_000);

interface ColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: 'YES' | 'NO';
  has_default: boolean;
}

/** The tables schema-pg declares, as the migrations must have built them. */
const declared = Object.values(pgSchema as Record<string, unknown>)
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableConfig(table));

/**
 * The PostgreSQL migrations (migrations/postgres, applied by PostgresEventStore.migrate) build every
 * table schema-pg declares, the read-model twins included: a twin added without regenerating the
 * migration, or a migration edited by hand, fails here on a real server.
 */
describe('PostgreSQL read-model tables (migrations/postgres on a real server)', () => {
  let server: PostgresServer;
  let url: string;
  let client: Client;

  beforeAll(async () => {
    server = await startPostgresServer();
    url = await server.createDatabase();
    const store = await openPostgresEventStore(url);
    await store.close();
    client = new Client({ connectionString: url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    server?.stop();
  });

  it('creates every table with the columns, types, nullability and defaults schema-pg declares', async () => {
    const { rows } = await client.query<ColumnRow>(
      `SELECT table_name, column_name, data_type, is_nullable, (column_default IS NOT NULL OR is_identity = 'YES') AS has_default
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '__drizzle_migrations'`,
    );
    const actual = rows.map(
      (r) => `${r.table_name}.${r.column_name} ${r.data_type}${r.is_nullable === 'NO' ? ' not null' : ''}${r.has_default ? ' default' : ''}`,
    );
    const expected = declared.flatMap((t) =>
      t.columns.map((c) => `${t.name}.${c.name} ${c.getSQLType()}${c.notNull ? ' not null' : ''}${c.hasDefault ? ' default' : ''}`),
    );
    expect(actual.sort()).toEqual(expected.sort());
    // The read-model twins are there, not only the log's tables.
    expect(new Set(rows.map((r) => r.table_name))).toEqual(
      new Set([
        'events',
        'streams',
        'projection_checkpoints',
        'stream_summaries',
        'agents',
        'approvals',
        'audit_log',
        'child_sessions',
        'subagent_instances',
        'routed_requests',
        'runs',
        'sessions',
        'instance_leases',
        'model_calls',
        'pauses',
        'api_keys',
        'sign_in_sessions',
        'trace_spans',
        'trace_session_contexts',
        'schedules',
        'schedule_firings',
      ]),
    );
  });

  it('compares lineage paths byte by byte (COLLATE "C"), so a subtree is one range of runs.path and model_calls.run_path', async () => {
    const { rows } = await client.query<{ table_name: string; column_name: string; collation_name: string | null }>(
      `SELECT table_name, column_name, collation_name FROM information_schema.columns
        WHERE table_schema = 'public' AND ((table_name = 'runs' AND column_name = 'path') OR (table_name = 'model_calls' AND column_name = 'run_path'))
        ORDER BY table_name`,
    );
    expect(rows).toEqual([
      { table_name: 'model_calls', column_name: 'run_path', collation_name: 'C' },
      { table_name: 'runs', column_name: 'path', collation_name: 'C' },
    ]);
  });

  it('creates every declared index and primary key', async () => {
    const { rows } = await client.query<{ tablename: string; indexname: string }>(
      `SELECT tablename, indexname FROM pg_indexes WHERE schemaname = 'public'`,
    );
    const indexNames = new Set(rows.map((r) => `${r.tablename}.${r.indexname}`));
    const missing = declared.flatMap((t) => t.indexes.map((i) => `${t.name}.${i.config.name}`)).filter((name) => !indexNames.has(name));
    expect(missing).toEqual([]);
    const { rows: keys } = await client.query<{ table_name: string; columns: string }>(
      `SELECT tc.table_name, string_agg(kcu.column_name, ',' ORDER BY kcu.ordinal_position) AS columns
         FROM information_schema.table_constraints tc
         JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
        WHERE tc.table_schema = 'public' AND tc.constraint_type = 'PRIMARY KEY' AND tc.table_name IN ('subagent_instances', 'audit_log')
        GROUP BY tc.table_name ORDER BY tc.table_name`,
    );
    expect(keys).toEqual([
      { table_name: 'audit_log', columns: 'global_position' },
      { table_name: 'subagent_instances', columns: 'parent_session_id,tool_call_id' },
    ]);
  });

  it('gives back the JavaScript types of the SQLite twin: numbers past 2^31, booleans, defaults', async () => {
    const db = drizzle(client);
    const past32Bits = 2 ** 40;
    await db.insert(pgSchema.runs).values({
      runId: 'run-1',
      agentId: 'agent-1',
      prompt: 'p',
      status: 'running',
      background: true,
      ownerThreadId: 'api',
      rootRunId: 'run-1',
      depth: 0,
      path: '/run-1/',
      threadId: 'sub-agent-run-1',
      epoch: 1,
      policy: '{}',
      inputTokens: past32Bits,
      startedAt: '2026-01-01T00:00:00.000Z',
      launchedAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    const [run] = await db.select().from(pgSchema.runs);
    expect(run).toMatchObject({
      background: true,
      inputTokens: past32Bits,
      outputTokens: 0,
      toolCalls: 0,
      durationMs: 0,
      ownerNotified: false,
      budgetWarnings: '[]',
      budgetWarningsTold: 0,
      startedAt: '2026-01-01T00:00:00.000Z',
    });
  });
});
