import { Client } from 'pg';
import { ExpectedVersionConflictError } from '../../src/event-store/event-store.errors';
import { writePartsSql } from '../../src/event-store/postgres/append-sql';
import type { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { openPostgresEventStore } from '../fixtures/postgres-event-store-fixture';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';

jest.setTimeout(120_000);

const event = (n: number) => ({ type: 'Happened', data: { n } });

/**
 * The PostgreSQL store writes a group in one round trip from guessed stream versions (the expected
 * version, or the version it last wrote) and lets the write check them. These are the cases where a
 * guess is wrong because ANOTHER instance moved the stream: the outcome must be what the checked path
 * gives (same errors, same positions, no hole in a stream), never a write at a guessed position.
 */
describe('PostgresEventStore: appends from guessed versions, with another instance writing the same streams', () => {
  let server: PostgresServer;
  let a: PostgresEventStore;
  let b: PostgresEventStore;
  let url: string;

  beforeAll(async () => {
    server = await startPostgresServer();
    url = await server.createDatabase();
    a = await openPostgresEventStore(url);
    b = await openPostgresEventStore(url);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    server?.stop();
  });

  const positions = async (streamId: string) => (await a.readStream(streamId)).map((e) => e.streamPosition);

  it("'any' after another instance appended lands after that instance's events, not at the version this store remembers", async () => {
    await a.append('any-stream', 'no_stream', [event(1)]); // a remembers version 1
    await b.append('any-stream', 'any', [event(2), event(3)]);
    const result = await a.append('any-stream', 'any', [event(4)]);
    expect(result.nextExpectedVersion).toBe(4);
    expect(await positions('any-stream')).toEqual([1, 2, 3, 4]);
  });

  it('an expected version this store remembers but another instance moved past is the usual conflict, with the real version', async () => {
    const first = await a.append('moved', 'no_stream', [event(1)]);
    await b.append('moved', 1, [event(2)]);
    await expect(a.append('moved', first.nextExpectedVersion, [event(3)])).rejects.toEqual(new ExpectedVersionConflictError('moved', 1, 2));
    expect(await positions('moved')).toEqual([1, 2]);
  });

  it('no_stream on a stream another instance created, and a version on a stream that does not exist, are conflicts', async () => {
    await b.append('created-elsewhere', 'no_stream', [event(1)]);
    await expect(a.append('created-elsewhere', 'no_stream', [event(2)])).rejects.toEqual(
      new ExpectedVersionConflictError('created-elsewhere', 'no_stream', 1),
    );
    await expect(a.append('never-written', 3, [event(1)])).rejects.toEqual(new ExpectedVersionConflictError('never-written', 3, 0));
    expect(await a.streamVersion('never-written')).toBe(0);
  });

  it("stream_exists on a stream this store never wrote reads the version; on one it did, it follows another instance's appends", async () => {
    await b.append('exists', 'no_stream', [event(1)]);
    expect((await a.append('exists', 'stream_exists', [event(2)])).nextExpectedVersion).toBe(2);
    await b.append('exists', 2, [event(3)]);
    expect((await a.append('exists', 'stream_exists', [event(4)])).nextExpectedVersion).toBe(4);
    expect(await positions('exists')).toEqual([1, 2, 3, 4]);
  });

  it('one wrong guess in a group fails only its own request: the others of the group commit, in one order', async () => {
    await a.append('g-wrong', 'no_stream', [event(1)]);
    await b.append('g-wrong', 1, [event(2)]);
    const head = await a.headPosition();
    // One turn of the event loop: one group.
    const settled = await Promise.allSettled([
      a.append('g-1', 'no_stream', [event(1)]),
      a.append('g-wrong', 1, [event(3)]),
      a.appendMany([
        { streamId: 'g-2', expectedVersion: 0, events: [event(1), event(2)] },
        { streamId: 'g-3', expectedVersion: 'no_stream', events: [event(1)] },
      ]),
      a.append('g-1', 1, [event(2)]), // follows the first request of the same group
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toEqual(new ExpectedVersionConflictError('g-wrong', 1, 2));
    const written = await a.readAll({ after: head });
    // In increasing global order (the failed guess rolled back what it drew: a gap, never a reorder).
    expect(written.map((e) => e.globalPosition)).toEqual(written.map((e) => e.globalPosition).sort((x, y) => x - y));
    expect(written.map((e) => `${e.streamId}@${e.streamPosition}`)).toEqual(['g-1@1', 'g-2@1', 'g-2@2', 'g-3@1', 'g-1@2']);
  });

  it('a request that conflicts within its group leaves no guess behind for a later request of the group', async () => {
    await a.append('h', 'no_stream', [event(1)]);
    await b.append('h', 1, [event(2), event(3)]); // h is at 3
    const settled = await Promise.allSettled([
      a.append('h2', 'no_stream', [event(1)]),
      // conflicts with the first request (h2 is taken), so its guess "h at 1" is never written or checked
      a.appendMany([
        { streamId: 'h', expectedVersion: 1, events: [event(9)] },
        { streamId: 'h2', expectedVersion: 'no_stream', events: [event(9)] },
      ]),
      a.append('h', 3, [event(4)]), // right, whatever the request before it guessed
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(ExpectedVersionConflictError);
    expect(await positions('h')).toEqual([1, 2, 3, 4]);
  });

  it('checks a guess with one index probe per stream, never a scan of the log', async () => {
    await a.appendMany(
      Array.from({ length: 200 }, (_, i) => ({ streamId: `bulk-${i}`, expectedVersion: 'no_stream' as const, events: [event(1), event(2)] })),
    );
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('ANALYZE events');
      const write = writePartsSql(
        [
          {
            streamId: 'bulk-7',
            nextExpectedVersion: 3,
            events: [{ eventId: 'probe', streamId: 'bulk-7', streamPosition: 3, type: 'T', data: {}, metadata: {} }],
          },
        ],
        new Date().toISOString(),
      );
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${write}`);
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan).toContain('events_stream_position_uq');
      expect(plan).not.toMatch(/Seq Scan on events/);
    } finally {
      await client.end();
    }
  });
});
