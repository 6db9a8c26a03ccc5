import type { Pool } from 'pg';
import { createPostgresPool } from '../../src/database/postgres-pool';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';

/**
 * Appends nobody awaits (a CLI's records) land in the log in the order they were made, on PostgreSQL
 * too, where two group commits are in flight at once, each on its own connection. Found by the
 * delegation crash spec: a run's `session.idle` record was committed before the `assistant.message`
 * sent just before it, and the run completed with an empty output. (SQLite has one synchronous
 * writer: its groups cannot overtake each other, so this is PostgreSQL's alone.)
 */
describe('PostgreSQL group commits keep the order appends were made in', () => {
  let server: PostgresServer;
  let pool: Pool;
  let store: PostgresEventStore;
  /** The next connection the store asks for comes this late: a busy pool, or a new connection being opened. */
  let slowNext = false;

  beforeAll(async () => {
    server = await startPostgresServer({ durable: false });
    pool = createPostgresPool({ url: await server.createDatabase(), size: 4 }, () => undefined);
    // The store's appends take connections with connect(); pool.query passes a callback and is left as it is.
    const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
    pool.connect = ((...args: unknown[]) => {
      if (args.length > 0 || !slowNext) return connect(...args);
      slowNext = false;
      return new Promise((resolve) => setTimeout(resolve, 200)).then(() => connect());
    }) as Pool['connect'];
    store = new PostgresEventStore({ pool });
    await store.migrate();
    await store.append('warm-up', 'any', [{ type: 'started', data: {} }]);
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    await pool?.end();
    server?.stop();
  });

  it('commits a later group after an earlier one whose connection came late', async () => {
    slowNext = true;
    const first = store.append('session-s', 'any', [{ type: 'cli.assistant.message', data: { content: 'RESULT' } }]);
    // The first group has started (and waits for its connection); this one forms the second group.
    await new Promise((resolve) => setImmediate(resolve));
    const second = store.append('session-s', 'any', [{ type: 'cli.session.idle', data: {} }]);
    await Promise.all([first, second]);

    const recorded = await store.readStream('session-s');
    expect(recorded.map((e) => [e.type, e.streamPosition])).toEqual([
      ['cli.assistant.message', 1],
      ['cli.session.idle', 2],
    ]);
    expect(recorded[0].globalPosition).toBeLessThan(recorded[1].globalPosition);
  });

  it('keeps a group whose guessed version was wrong ahead of the group queued behind it while it is replayed', async () => {
    await store.append('session-g', 'any', [{ type: 'cli.user.message', data: {} }]); // the store remembers version 1
    const other = new PostgresEventStore({ pool });
    try {
      await other.append('session-g', 'any', [{ type: 'cli.tool.execution_start', data: {} }]); // another instance: version 2
    } finally {
      await other.close();
    }
    // The first group guesses version 1, fails on the write and is replayed under the lock it kept; the second waits for it.
    const first = store.append('session-g', 'any', [{ type: 'cli.assistant.message', data: { content: 'RESULT' } }]);
    await new Promise((resolve) => setImmediate(resolve));
    const second = store.append('session-g', 'any', [{ type: 'cli.session.idle', data: {} }]);
    await Promise.all([first, second]);

    const recorded = await store.readStream('session-g');
    expect(recorded.map((e) => [e.type, e.streamPosition])).toEqual([
      ['cli.user.message', 1],
      ['cli.tool.execution_start', 2],
      ['cli.assistant.message', 3],
      ['cli.session.idle', 4],
    ]);
    expect(recorded[2].globalPosition).toBeLessThan(recorded[3].globalPosition);
  });
});
