import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { ExpectedVersionConflictError } from '../../src/event-store/event-store.errors';
import type { ExpectedVersion, StoredEvent } from '../../src/event-store/event-store.types';
import type { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { openPostgresEventStore } from '../fixtures/postgres-event-store-fixture';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';
import { waitUntil } from '../fixtures/wait-until';

jest.setTimeout(300_000);

const WRITERS = 3;
const READERS = 2;
const STREAMS_PER_RUN = 4;

/** Lets `turns` turns of the event loop pass, so appenders interleave differently with the groups. */
async function yieldTurns(turns: number): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

async function readLogAfter(store: PostgresEventStore, after: number): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  for (let last = after; ;) {
    const page = await store.readAll({ after: last, limit: 500 });
    all.push(...page);
    if (page.length < 500) return all;
    last = page[page.length - 1].globalPosition;
  }
}

/** One appender: which store (pool) it writes through, which of the run's streams, how, how often. */
const appenderPlan = fc.record({
  writer: fc.integer({ min: 0, max: WRITERS - 1 }),
  stream: fc.integer({ min: 0, max: STREAMS_PER_RUN - 1 }),
  alsoStream: fc.option(fc.integer({ min: 0, max: STREAMS_PER_RUN - 1 }), { nil: undefined }),
  appends: fc.integer({ min: 1, max: 6 }),
  size: fc.integer({ min: 1, max: 3 }),
  checked: fc.boolean(),
  delay: fc.integer({ min: 0, max: 3 }),
});

describe('PostgresEventStore: global order under concurrent appenders on several pools', () => {
  let server: PostgresServer;
  let writers: PostgresEventStore[] = [];
  let readers: PostgresEventStore[] = [];

  beforeAll(async () => {
    server = await startPostgresServer();
    const url = await server.createDatabase();
    writers = await Promise.all(Array.from({ length: WRITERS }, () => openPostgresEventStore(url, { poolSize: 3 })));
    readers = await Promise.all(Array.from({ length: READERS }, () => openPostgresEventStore(url, { poolSize: 2, pollIntervalMs: 50 })));
  });

  afterAll(async () => {
    for (const store of [...writers, ...readers]) await store.close();
    server?.stop();
  });

  it("every subscriber and every store's committed$ see every acknowledged event exactly once, in one order, with no hole; acknowledgements = the log", async () => {
    let conflicts = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(appenderPlan, { minLength: 2, maxLength: 16 }), async (plan) => {
        const run = `${++runs}-${randomUUID().slice(0, 8)}`;
        const streamName = (i: number) => `order-${run}-${i}`;
        const from = await writers[0].headPosition();
        // Subscribers on connections of their own, started before the appends, so they see them live.
        const seen = readers.map(() => [] as StoredEvent[]);
        const failures: unknown[] = [];
        const subscriptions = readers.map((reader, i) =>
          reader.subscribe(from).subscribe({ next: (e) => seen[i].push(e), error: (e) => failures.push(e) }),
        );
        // Each writer's committed$ (its tail): every instance's events, once, in order, and an append's before it resolves.
        const published = writers.map(() => [] as StoredEvent[]);
        const publishedIds = writers.map(() => new Set<string>());
        const tails = writers.map((writer, w) =>
          writer.committed$.subscribe((e) => {
            published[w].push(e);
            publishedIds[w].add(e.eventId);
          }),
        );
        const unpublishedAtResolve: string[] = [];
        const acknowledged: StoredEvent[] = [];
        try {
          await Promise.all(
            plan.map(async (appender, a) => {
              const store = writers[appender.writer];
              for (let k = 0; k < appender.appends; k++) {
                await yieldTurns(appender.delay);
                const streams = [...new Set([appender.stream, appender.alsoStream ?? appender.stream])].map(streamName);
                const parts = await Promise.all(
                  streams.map(async (streamId) => ({
                    streamId,
                    expectedVersion: (appender.checked ? await store.streamVersion(streamId) : 'any') as ExpectedVersion,
                    events: Array.from({ length: appender.size }, (_, index) => ({ type: 'Ordered', data: { appender: a, attempt: k, index } })),
                  })),
                );
                try {
                  const results = await store.appendMany(parts);
                  const events = results.flatMap((result) => result.events);
                  unpublishedAtResolve.push(...events.filter((e) => !publishedIds[appender.writer].has(e.eventId)).map((e) => e.eventId));
                  acknowledged.push(...events);
                } catch (error) {
                  if (!(error instanceof ExpectedVersionConflictError)) throw error;
                  conflicts += 1;
                }
              }
            }),
          );

          const log = await readLogAfter(writers[0], from);
          const last = log[log.length - 1]?.globalPosition ?? from;
          // Acknowledged = written: nothing acknowledged is missing, nothing refused is in the log.
          expect(log.map((e) => e.eventId).sort()).toEqual(acknowledged.map((e) => e.eventId).sort());
          expect(log).toEqual([...acknowledged].sort((x, y) => x.globalPosition - y.globalPosition));
          // Each stream: versions 1..n, in global order, its row at n.
          for (let i = 0; i < STREAMS_PER_RUN; i++) {
            const stream = log.filter((e) => e.streamId === streamName(i));
            expect(stream.map((e) => e.streamPosition)).toEqual(stream.map((_, n) => n + 1));
            expect(await readers[0].streamVersion(streamName(i))).toBe(stream.length);
          }
          // A subscriber that skipped a position never goes back for it: it would stop short of `last`.
          for (const events of seen) {
            await waitUntil(() => (events[events.length - 1]?.globalPosition ?? from) >= last, 'the subscriber to reach the head', 20_000);
            expect(events).toEqual(log);
          }
          expect(failures).toEqual([]);
          expect(unpublishedAtResolve).toEqual([]);
          for (const events of published) {
            await waitUntil(() => (events[events.length - 1]?.globalPosition ?? from) >= last, "a writer's tail to reach the head", 20_000);
            // Subscribed after `from`, a tail may still have been publishing the previous run's events.
            expect(events.filter((e) => e.globalPosition > from)).toEqual(log);
          }
        } finally {
          subscriptions.forEach((subscription) => subscription.unsubscribe());
          tails.forEach((tail) => tail.unsubscribe());
        }
      }),
      { numRuns: 25 },
    );
    // The property covered refused appends too, not only the happy path.
    expect(conflicts).toBeGreaterThan(0);
    const stats = writers.map((writer) => writer.stats());
    expect(stats.reduce((n, s) => n + s.appends, 0)).toBeGreaterThan(stats.reduce((n, s) => n + s.commits, 0)); // groups formed
  });
});
