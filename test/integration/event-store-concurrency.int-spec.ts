import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { firstValueFrom, take, toArray } from 'rxjs';
import type { EventStore } from '../../src/event-store/event-store';
import { ExpectedVersionConflictError } from '../../src/event-store/event-store.errors';
import type { AppendResult, ExpectedVersion, NewEvent, StoredEvent } from '../../src/event-store/event-store.types';
import { type EventStoreTarget, eventStoreTargets } from '../fixtures/event-store-targets';
import { foldSummaries, readSummaries, wholeLog } from '../fixtures/stream-summary-fold';
import { waitUntil } from '../fixtures/wait-until';

jest.setTimeout(300_000);

/** Lets `turns` turns of the event loop pass, so writers interleave differently with the store's group commits. */
async function yieldTurns(turns: number): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

function newEvents(writer: number, attempt: number, size: number): NewEvent[] {
  return Array.from({ length: size }, (_, index) => ({
    eventId: randomUUID(),
    type: 'Raced',
    data: { writer, attempt, index },
  }));
}

const writerPlan = fc.array(fc.record({ size: fc.integer({ min: 1, max: 3 }), delay: fc.integer({ min: 0, max: 2 }) }), { minLength: 1, maxLength: 4 });

const WRITERS = 3;
const READERS = 2;
const STREAMS_PER_RUN = 4;

/** One appender of the order property: which store it writes through, which of the run's streams, how, how often. */
const appenderPlan = fc.record({
  writer: fc.integer({ min: 0, max: WRITERS - 1 }),
  stream: fc.integer({ min: 0, max: STREAMS_PER_RUN - 1 }),
  alsoStream: fc.option(fc.integer({ min: 0, max: STREAMS_PER_RUN - 1 }), { nil: undefined }),
  appends: fc.integer({ min: 1, max: 6 }),
  size: fc.integer({ min: 1, max: 3 }),
  checked: fc.boolean(),
  delay: fc.integer({ min: 0, max: 3 }),
});

describe.each(eventStoreTargets())('the event store under concurrent appenders on %s', (_name, openTarget) => {
  let target: EventStoreTarget;
  let store: EventStore;
  let runs = 0;

  beforeAll(async () => {
    target = await openTarget();
    store = target.store;
  });

  afterAll(() => target?.close());

  /** The inline read model holds exactly the fold of the stream's events. */
  const expectSummaryOf = async (streamId: string, events: StoredEvent[]) =>
    expect(await readSummaries(target.db, [streamId])).toEqual(foldSummaries(events));

  it('optimistic concurrency: exactly one append wins each version, the rest conflict, acknowledgements = stream content', async () => {
    let conflictsSeen = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 3 }), fc.array(writerPlan, { minLength: 2, maxLength: 6 }), async (initial, writers) => {
        const stream = `race-${++runs}`;
        if (initial > 0) await store.append(stream, 0, newEvents(-1, 0, initial));

        const acks: Array<{ writer: number; expected: number; result: AppendResult }> = [];
        const conflicts: Array<{ writer: number; expected: number; actual: number }> = [];
        const unexpected: unknown[] = [];

        await Promise.all(
          writers.map(async (attempts, writer) => {
            // Every writer reads the version once, then trusts what its own appends tell it.
            let believed = await store.streamVersion(stream);
            for (const [attempt, { size, delay }] of attempts.entries()) {
              await yieldTurns(delay);
              const expected = believed;
              try {
                const result = await store.append(stream, expected, newEvents(writer, attempt, size));
                acks.push({ writer, expected, result });
                believed = result.nextExpectedVersion;
              } catch (error) {
                if (!(error instanceof ExpectedVersionConflictError)) {
                  unexpected.push(error);
                  return;
                }
                conflicts.push({ writer, expected, actual: error.actual });
                believed = error.actual;
              }
            }
          }),
        );

        expect(unexpected).toEqual([]);
        const attempts = writers.reduce((n, w) => n + w.length, 0);
        expect(acks.length + conflicts.length).toBe(attempts);

        // In commit order the wins chain up from the initial version: one winner per version. (Commit order,
        // not the order the replies came in: on PostgreSQL another connection may see a commit, and append
        // after it, before the committing connection's reply is read.)
        const committed = [...acks].sort((x, y) => x.result.events[0].globalPosition - y.result.events[0].globalPosition);
        let version = initial;
        for (const ack of committed) {
          expect(ack.expected).toBe(version);
          expect(ack.result.events.map((e) => e.streamPosition)).toEqual(ack.result.events.map((_, i) => version + i + 1));
          version = ack.result.nextExpectedVersion;
        }
        expect(await store.streamVersion(stream)).toBe(version);

        // Every version anyone bet on was won exactly once; the losers were told the stream had moved on.
        const wins = new Map<number, number>();
        for (const ack of acks) wins.set(ack.expected, (wins.get(ack.expected) ?? 0) + 1);
        for (const conflict of conflicts) {
          expect(conflict.actual).toBeGreaterThan(conflict.expected);
          expect(wins.get(conflict.expected)).toBe(1);
        }

        // Never lost, never duplicated, each batch whole: the stream is exactly the acknowledged events.
        const content = (await store.readStream(stream)).slice(initial);
        const acknowledged = committed.flatMap((a) => a.result.events);
        expect(content.map((e) => [e.eventId, e.globalPosition, e.streamPosition])).toEqual(
          acknowledged.map((e) => [e.eventId, e.globalPosition, e.streamPosition]),
        );
        const globalOrder = acknowledged.map((e) => e.globalPosition);
        expect(globalOrder).toEqual([...globalOrder].sort((a, b) => a - b));
        await expectSummaryOf(stream, await store.readStream(stream));
        conflictsSeen += conflicts.length;
      }),
      { numRuns: 100 },
    );
    expect(conflictsSeen).toBeGreaterThan(0);
  });

  it('retry on conflict: every writer eventually succeeds and the stream holds exactly all their events', async () => {
    let retriesSeen = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(writerPlan, { minLength: 2, maxLength: 6 }), async (writers) => {
        const stream = `retry-${++runs}`;
        const batchesInAckOrder: Array<{ writer: number; attempt: number; events: StoredEvent[] }> = [];
        let conflicts = 0;

        await Promise.all(
          writers.map(async (attempts, writer) => {
            for (const [attempt, { size, delay }] of attempts.entries()) {
              const events = newEvents(writer, attempt, size);
              await yieldTurns(delay);
              for (let tries = 1; ; tries++) {
                try {
                  const result = await store.append(stream, await store.streamVersion(stream), events);
                  batchesInAckOrder.push({ writer, attempt, events: result.events });
                  break;
                } catch (error) {
                  if (!(error instanceof ExpectedVersionConflictError) || tries >= 100) throw error;
                  conflicts++;
                }
              }
            }
          }),
        );

        const total = writers.flat().reduce((n, a) => n + a.size, 0);
        expect(batchesInAckOrder).toHaveLength(writers.flat().length);
        expect(await store.streamVersion(stream)).toBe(total);

        const content = await store.readStream(stream);
        expect(content).toHaveLength(total);
        expect(content.map((e) => e.streamPosition)).toEqual(content.map((_, i) => i + 1));
        // Exactly the acknowledged events, each batch contiguous, at the positions it was acknowledged with.
        const inCommitOrder = [...batchesInAckOrder].sort((x, y) => x.events[0].globalPosition - y.events[0].globalPosition);
        expect(content).toEqual(inCommitOrder.flatMap((b) => b.events));
        // Each writer's batches landed in the order it sent them.
        writers.forEach((attempts, writer) => {
          const order = batchesInAckOrder.filter((b) => b.writer === writer).map((b) => b.attempt);
          expect(order).toEqual(attempts.map((_, i) => i));
        });
        await expectSummaryOf(stream, content);
        retriesSeen += conflicts;
      }),
      { numRuns: 100 },
    );
    // The runs did race: some appends had to be retried (else the property proved nothing about retries).
    expect(retriesSeen).toBeGreaterThan(0);
  });

  describe('several stores on one database (connections on SQLite, instances on PostgreSQL)', () => {
    let writers: EventStore[] = [];
    let readers: EventStore[] = [];

    beforeAll(async () => {
      const others = await Promise.all(Array.from({ length: WRITERS - 1 + READERS }, () => target.openAnother()));
      writers = [store, ...others.slice(0, WRITERS - 1).map((other) => other.store)];
      readers = others.slice(WRITERS - 1).map((other) => other.store);
    });

    it("subscribers and every writer's committed$ see every acknowledged event they can see exactly once, in one order, with no hole; acknowledgements = the log", async () => {
      let conflicts = 0;
      const statsBefore = writers.map((writer) => writer.stats());
      await fc.assert(
        fc.asyncProperty(fc.array(appenderPlan, { minLength: 2, maxLength: 16 }), async (plan) => {
          const run = `${++runs}-${randomUUID().slice(0, 8)}`;
          const streamName = (i: number) => `order-${run}-${i}`;
          const from = await writers[0].headPosition();
          // Subscribers on every store, started before the appends, so they see them live.
          const stores = [...writers, ...readers];
          const seen = stores.map(() => [] as StoredEvent[]);
          const failures: unknown[] = [];
          const subscriptions = stores.map((s, i) => s.subscribe(from).subscribe({ next: (e) => seen[i].push(e), error: (e) => failures.push(e) }));
          // Each writer's committed$ (on PostgreSQL its tail): what it can see once, in order, and an append's before it resolves.
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
          /** Which store acknowledged each event. */
          const appendedBy = new Map<string, EventStore>();
          try {
            await Promise.all(
              plan.map(async (appender, a) => {
                const writer = writers[appender.writer];
                for (let k = 0; k < appender.appends; k++) {
                  await yieldTurns(appender.delay);
                  const streams = [...new Set([appender.stream, appender.alsoStream ?? appender.stream])].map(streamName);
                  const parts = await Promise.all(
                    streams.map(async (streamId) => ({
                      streamId,
                      expectedVersion: (appender.checked ? await writer.streamVersion(streamId) : 'any') as ExpectedVersion,
                      events: Array.from({ length: appender.size }, (_, index) => ({ type: 'Ordered', data: { appender: a, attempt: k, index } })),
                    })),
                  );
                  try {
                    const results = await writer.appendMany(parts);
                    const events = results.flatMap((result) => result.events);
                    unpublishedAtResolve.push(...events.filter((e) => !publishedIds[appender.writer].has(e.eventId)).map((e) => e.eventId));
                    acknowledged.push(...events);
                    events.forEach((e) => appendedBy.set(e.eventId, writer));
                  } catch (error) {
                    if (!(error instanceof ExpectedVersionConflictError)) throw error;
                    conflicts += 1;
                  }
                }
              }),
            );

            const log = await wholeLog(readers[0], { after: from });
            // Acknowledged = written: nothing acknowledged is missing, nothing refused is in the log.
            expect(log.map((e) => e.eventId).sort()).toEqual(acknowledged.map((e) => e.eventId).sort());
            expect(log).toEqual([...acknowledged].sort((x, y) => x.globalPosition - y.globalPosition));
            // Each stream: versions 1..n, in global order, its row at n.
            for (let i = 0; i < STREAMS_PER_RUN; i++) {
              const stream = log.filter((e) => e.streamId === streamName(i));
              expect(stream.map((e) => e.streamPosition)).toEqual(stream.map((_, n) => n + 1));
              expect(await readers[0].streamVersion(streamName(i))).toBe(stream.length);
            }
            // Live, a store carries every store's events on PostgreSQL, its own on SQLite (the rest it reads from the log).
            const visibleTo = (s: EventStore) => (target.tailsOtherStores ? log : log.filter((e) => appendedBy.get(e.eventId) === s));
            const lastOf = (events: StoredEvent[]) => events[events.length - 1]?.globalPosition ?? from;
            // A subscriber that skipped a position never goes back for it: it would stop short of the last one.
            for (const [i, events] of seen.entries()) {
              const expected = visibleTo(stores[i]);
              await waitUntil(() => lastOf(events) >= lastOf(expected), 'the subscriber to reach the head', 20_000);
              expect(events).toEqual(expected);
            }
            expect(failures).toEqual([]);
            expect(unpublishedAtResolve).toEqual([]);
            for (const [w, events] of published.entries()) {
              const expected = visibleTo(writers[w]);
              await waitUntil(() => lastOf(events) >= lastOf(expected), "a writer's committed$ to reach the head", 20_000);
              // Subscribed after `from`, a tail may still have been publishing the previous run's events.
              expect(events.filter((e) => e.globalPosition > from)).toEqual(expected);
            }
            // Caught up afterwards, on any store: the whole log, once each, in order.
            if (log.length > 0) expect(await firstValueFrom(readers[1].subscribe(from).pipe(take(log.length), toArray()))).toEqual(log);
          } finally {
            subscriptions.forEach((subscription) => subscription.unsubscribe());
            tails.forEach((tail) => tail.unsubscribe());
          }
        }),
        { numRuns: 25 },
      );
      // The property covered refused appends too, not only the happy path.
      expect(conflicts).toBeGreaterThan(0);
      const stats = writers.map((writer, w) => ({
        appends: writer.stats().appends - statsBefore[w].appends,
        commits: writer.stats().commits - statsBefore[w].commits,
      }));
      expect(stats.reduce((n, s) => n + s.appends, 0)).toBeGreaterThan(stats.reduce((n, s) => n + s.commits, 0)); // groups formed
      // The inline read model of every stream is the fold of its events: no append projected twice or lost.
      const log = await wholeLog(store);
      const orderStreams = [...new Set(log.filter((e) => e.streamId.startsWith('order-')).map((e) => e.streamId))];
      expect(await readSummaries(target.db, orderStreams)).toEqual(foldSummaries(log.filter((e) => e.streamId.startsWith('order-'))));
    });
  });
});
