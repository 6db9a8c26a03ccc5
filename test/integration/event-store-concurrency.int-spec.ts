import Database from 'better-sqlite3';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../src/event-store/event-store';
import { ExpectedVersionConflictError, InvalidAppendError } from '../../src/event-store/event-store.errors';
import type { AppendResult, NewEvent, StoredEvent } from '../../src/event-store/event-store.types';
import type { Projection } from '../../src/event-store/projection';
import { openTestEventStore, type TestEventStore } from '../fixtures/event-store-fixture';
import { streamCategory } from '../../src/event-store/stream-ids';

/** Lets `turns` turns of the event loop pass, so writers interleave differently with the store's flushes. */
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

function summaryRow(fixture: TestEventStore, streamId: string) {
  return fixture.database.connection.prepare('SELECT * FROM stream_summaries WHERE stream_id = ?').get(streamId);
}

/** What the inline read model must hold for a stream, recomputed from its events. */
function expectedSummary(events: StoredEvent[]) {
  if (events.length === 0) return undefined;
  const first = events[0];
  const last = events[events.length - 1];
  return {
    stream_id: first.streamId,
    category: streamCategory(first.streamId),
    event_count: events.length,
    last_event_type: last.type,
    last_global_position: last.globalPosition,
    first_recorded_at: first.recordedAt,
    last_recorded_at: last.recordedAt,
  };
}

const writerPlan = fc.array(fc.record({ size: fc.integer({ min: 1, max: 3 }), delay: fc.integer({ min: 0, max: 2 }) }), { minLength: 1, maxLength: 4 });

describe('EventStore under concurrent writers (one SQLite file, group commit)', () => {
  let fixture: TestEventStore;
  let store: EventStore;
  let runs = 0;

  beforeAll(() => {
    fixture = openTestEventStore();
    store = fixture.store;
  });

  afterAll(() => fixture.close());

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

        // In acknowledgement order the wins chain up from the initial version: one winner per version.
        let version = initial;
        for (const ack of acks) {
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

        // Never lost, never duplicated, in acknowledgement order: the stream is exactly the acknowledged events.
        const content = (await store.readStream(stream)).slice(initial);
        const acknowledged = acks.flatMap((a) => a.result.events);
        expect(content.map((e) => [e.eventId, e.globalPosition, e.streamPosition])).toEqual(
          acknowledged.map((e) => [e.eventId, e.globalPosition, e.streamPosition]),
        );
        const globalOrder = acknowledged.map((e) => e.globalPosition);
        expect(globalOrder).toEqual([...globalOrder].sort((a, b) => a - b));
        expect(summaryRow(fixture, stream)).toEqual(expectedSummary(await store.readStream(stream)));
        conflictsSeen += conflicts.length;
      }),
      { numRuns: 100 },
    );
    expect(conflictsSeen).toBeGreaterThan(0);
  }, 30_000);

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
        // Exactly the acknowledged events, in acknowledgement order, each batch contiguous.
        expect(content.map((e) => e.eventId)).toEqual(batchesInAckOrder.flatMap((b) => b.events.map((e) => e.eventId)));
        // Each writer's batches landed in the order it sent them.
        writers.forEach((attempts, writer) => {
          const order = batchesInAckOrder.filter((b) => b.writer === writer).map((b) => b.attempt);
          expect(order).toEqual(attempts.map((_, i) => i));
        });
        expect(summaryRow(fixture, stream)).toEqual(expectedSummary(content));
        retriesSeen += conflicts;
      }),
      { numRuns: 100 },
    );
    // The runs did race: some appends had to be retried (else the property proved nothing about retries).
    expect(retriesSeen).toBeGreaterThan(0);
  }, 30_000);

  describe('appends issued within one tick', () => {
    let own: TestEventStore;
    let reader: Database.Database;
    /** Committed event count as another connection sees it, each time the probe projection ran. */
    const probeSaw: Array<{ eventId: string; committedEvents: number; inTransaction: boolean }> = [];

    beforeAll(() => {
      own = openTestEventStore();
      reader = new Database(own.file, { readonly: true });
      const countCommitted = reader.prepare('SELECT COUNT(*) AS n FROM events');
      // An inline projection that peeks at what is committed: it runs inside the group's transaction.
      const probe: Projection = {
        name: 'probe',
        mode: 'inline',
        tables: [],
        *apply(event) {
          probeSaw.push({
            eventId: event.eventId,
            committedEvents: (countCommitted.get() as { n: number }).n,
            inTransaction: own.database.connection.inTransaction,
          });
          if (event.type === 'Poison') throw new Error('probe refuses Poison');
          yield* [];
        },
      };
      own.registry.register(probe);
    });

    afterAll(() => {
      reader.close();
      own.close();
    });

    it('share one transaction, yet each append is all-or-nothing when others in the group fail', async () => {
      const { store: s } = own;
      await s.append('plain-1', 0, newEvents(0, 0, 2));
      const committedBefore = await s.headPosition();
      probeSaw.length = 0; // only the group below
      const published: StoredEvent[] = [];
      const sub = s.committed$.subscribe((e) => published.push(e));

      const ev = (type: string, eventId: string = randomUUID()): NewEvent => ({ eventId, type, data: { type } });
      const a = [ev('A'), ev('A')];
      const countAtSettle: number[] = [];
      const seeSettle = <T>(p: Promise<T>) =>
        p.finally(() => countAtSettle.push((reader.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n));

      // All issued synchronously, in this order; none is awaited before the last one is queued.
      const ok1 = seeSettle(s.append('group-a', 'no_stream', a));
      const staleVersion = seeSettle(s.append('plain-1', 0, [ev('X')]));
      const ok2 = seeSettle(s.append('group-b', 0, [ev('B')]));
      // Fails on its third insert (the id is one group-a just wrote in the same transaction): two rows to undo.
      const duplicateId = seeSettle(s.append('group-c', 0, [ev('C'), ev('C'), ev('C', a[0].eventId)]));
      // Fails in the inline projections after its first event was fully written and projected.
      const poisoned = seeSettle(s.append('group-d', 0, [ev('D'), ev('Poison')]));
      const ok3 = seeSettle(s.append('plain-1', 2, [ev('Y')]));
      // group-b moved to version 1 earlier in this very transaction.
      const lostRace = seeSettle(s.append('group-b', 0, [ev('B2')]));
      const many = Array.from({ length: 50 }, (_, i) => seeSettle(s.append(`many-${i}`, 'no_stream', [ev('M')])));

      const results = await Promise.allSettled([ok1, staleVersion, ok2, duplicateId, poisoned, ok3, lostRace, ...many]);
      sub.unsubscribe();
      const [r1, rStale, r2, rDup, rPoison, r3, rLost] = results;

      expect(results.map((r) => r.status)).toEqual([
        'fulfilled',
        'rejected',
        'fulfilled',
        'rejected',
        'rejected',
        'fulfilled',
        'rejected',
        ...many.map(() => 'fulfilled'),
      ]);
      expect((rStale as PromiseRejectedResult).reason).toBeInstanceOf(ExpectedVersionConflictError);
      expect((rStale as PromiseRejectedResult).reason).toMatchObject({ expected: 0, actual: 2 });
      expect((rLost as PromiseRejectedResult).reason).toBeInstanceOf(ExpectedVersionConflictError);
      expect((rLost as PromiseRejectedResult).reason).toMatchObject({ expected: 0, actual: 1 });
      expect((rDup as PromiseRejectedResult).reason).toBeInstanceOf(InvalidAppendError);
      expect((rPoison as PromiseRejectedResult).reason).toEqual(new Error('probe refuses Poison'));

      // One transaction: while any event of the group was being applied, none of the group was committed.
      expect(probeSaw.length).toBeGreaterThan(0);
      expect(new Set(probeSaw.map((p) => p.committedEvents))).toEqual(new Set([committedBefore]));
      expect(probeSaw.every((p) => p.inTransaction)).toBe(true);
      // ... and nothing settled before all of it was committed.
      const stored = 2 + 1 + 1 + many.length;
      expect(countAtSettle).toEqual(results.map(() => committedBefore + stored));

      // The successful appends are whole, at the positions they were acknowledged with.
      const acked = [r1, r2, r3, ...results.slice(7)].map((r) => (r as PromiseFulfilledResult<AppendResult>).value);
      expect(await s.readStream('group-a')).toEqual(acked[0].events);
      expect(await s.readStream('group-b')).toEqual(acked[1].events);
      expect((await s.readStream('plain-1')).slice(2)).toEqual(acked[2].events);
      expect(acked[2].events[0].streamPosition).toBe(3);
      const ackedEvents = acked.flatMap((r) => r.events);
      expect(await s.readAll({ after: committedBefore, limit: 1000 })).toEqual([...ackedEvents].sort((x, y) => x.globalPosition - y.globalPosition));
      // Published once each, in global order, only what committed.
      expect(published).toEqual(await s.readAll({ after: committedBefore, limit: 1000 }));

      // The failed appends left nothing: no events, no stream row, no read-model row, version unchanged.
      for (const failed of ['group-c', 'group-d']) {
        expect({ stream: failed, version: await s.streamVersion(failed), events: await s.readStream(failed), summary: summaryRow(own, failed) }).toEqual({
          stream: failed,
          version: 0,
          events: [],
          summary: undefined,
        });
      }
      expect(await s.streamVersion('plain-1')).toBe(3);
      expect(await s.streamVersion('group-b')).toBe(1);
      for (const stream of ['group-a', 'group-b', 'plain-1', 'many-0', 'many-49']) {
        expect(summaryRow(own, stream)).toEqual(expectedSummary(await s.readStream(stream)));
      }
      const ids = (await s.readAll({ after: 0, limit: 1000 })).map((e) => e.eventId);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });
  it('a group whose transaction SQLite aborts (disk full) stores nothing and fails every append', async () => {
    const f = openTestEventStore();
    try {
      await f.store.append('pre', 0, [{ type: 'P', data: {} }]);
      const pages = f.database.connection.pragma('page_count', { simple: true }) as number;
      f.database.connection.pragma(`max_page_count = ${pages + 3}`);
      const results = await Promise.allSettled([
        f.store.append('a', 0, [{ type: 'A', data: {} }]),
        f.store.append('b', 0, [{ type: 'B', data: { big: 'x'.repeat(200_000) } }]),
        f.store.append('c', 0, [{ type: 'C', data: {} }]),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect((await f.store.readAll()).map((e) => e.streamId)).toEqual(['pre']);
      expect(await f.store.streamVersion('c')).toBe(0);
    } finally {
      f.close();
    }
  });
});
