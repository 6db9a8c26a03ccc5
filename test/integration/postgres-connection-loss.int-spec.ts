import { Client } from 'pg';
import { connectionFailureOf, DatabaseUnreachableError } from '../../src/common/database-unreachable.error';
import type { PgProjection } from '../../src/projections/postgres-projection';
import type { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import type { StoredEvent } from '../../src/event-store/event-store.types';
import { openPostgresEventStore } from '../fixtures/postgres-event-store-fixture';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';
import { waitUntil } from '../fixtures/wait-until';

/**
 * issue 22: a PostgreSQL connection that dies under the event store. Fault injection on the real
 * server: an inline projection that ends its own backend (as pg_terminate_backend or a fast shutdown
 * would) in the middle of a group commit; a restart of the server while a store listens. An
 * unhandled 'error' on a pg client would end this process (the test runner) at once.
 */
jest.setTimeout(30_000);

describe('the PostgreSQL event store when its connection dies', () => {
  let server: PostgresServer;
  let url: string;
  const stores: PostgresEventStore[] = [];

  /** Ends the backend it runs on, in the group's transaction before COMMIT, for 'doomed' events only. */
  const suicidal: PgProjection = {
    name: 'suicidal',
    tables: [],
    eventTypes: ['doomed'],
    async apply(client) {
      await client.query('SELECT pg_terminate_backend(pg_backend_pid())');
    },
  };

  beforeAll(async () => {
    server = await startPostgresServer({ durable: false });
    url = await server.createDatabase();
  }, 60_000);

  afterAll(async () => {
    for (const store of stores) await store.close().catch(() => undefined);
    server?.stop();
  });

  async function open(options: Parameters<typeof openPostgresEventStore>[1] = {}): Promise<PostgresEventStore> {
    const store = await openPostgresEventStore(url, options);
    stores.push(store);
    await store.start();
    return store;
  }

  async function typesInLog(streamId: string): Promise<string[]> {
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      return (await admin.query<{ type: string }>('SELECT type FROM events WHERE stream_id = $1 ORDER BY global_position', [streamId])).rows.map(
        (r) => r.type,
      );
    } finally {
      await admin.end();
    }
  }

  it('fails an append whose connection died before COMMIT as database_unavailable, writes nothing of it, and appends on', async () => {
    const store = await open({ inlineProjections: [suicidal] });
    const published: StoredEvent[] = [];
    const subscription = store.committed$.subscribe((event) => published.push(event));
    await store.append('stream-ok', 'no_stream', [{ type: 'fine', data: { n: 1 } }]);

    const failure = await store.append('stream-doomed', 'no_stream', [{ type: 'doomed', data: {} }]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DatabaseUnreachableError);
    expect(failure).toMatchObject({ code: 'database_unavailable', details: { retryable: true, outcome: 'not_written' } });
    expect(await typesInLog('stream-doomed')).toEqual([]);

    // The append pipeline is not wedged: the next appends (two groups in flight) commit, in order.
    const next = await Promise.all([2, 3, 4].map((n) => store.append('stream-ok', 'any', [{ type: 'fine', data: { n } }])));
    expect(next.map((result) => result.nextExpectedVersion)).toEqual([2, 3, 4]);
    expect(await typesInLog('stream-ok')).toEqual(['fine', 'fine', 'fine', 'fine']);
    await waitUntil(() => published.length === 4, 'the tail to publish the four committed events');
    subscription.unsubscribe();
  });

  it('fails a transaction whose connection died with a connection error, and the next one gets a fresh connection', async () => {
    const store = await open();
    const failure = await store.transaction((client) => client.query('SELECT pg_terminate_backend(pg_backend_pid())')).catch((error: unknown) => error);
    // The driver's own error (the HTTP filter answers it with 503 database_unavailable).
    expect(connectionFailureOf(failure)).toBeDefined();
    expect(await store.transaction(async (client) => (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0].one)).toBe(1);
  });

  it('listens again once the server is back after a restart, and reads what committed meanwhile', async () => {
    // The poll would cover a lost LISTEN within its interval; a minute here, so only LISTEN can wake the reader.
    const reader = await open({ pollIntervalMs: 60_000 });
    const writer = await open({ pollIntervalMs: 60_000 });
    const seen: StoredEvent[] = [];
    const subscription = reader.committed$.subscribe((event) => seen.push(event));

    await server.shutDown();
    // Down longer than one reconnect attempt: the LISTEN connection must keep trying.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await server.start();

    // The writer's pool reconnects on its own; the first append after the restart is the reader's cue.
    await waitUntil(
      async () => {
        await writer.append('after-restart', 'any', [{ type: 'fine', data: {} }]).catch(() => undefined);
        return seen.some((event) => event.streamId === 'after-restart');
      },
      'the reader to see an event appended by another store after the restart (LISTEN reconnected)',
      15_000,
    );
    subscription.unsubscribe();
  });
});
