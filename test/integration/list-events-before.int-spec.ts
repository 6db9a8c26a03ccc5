import { ListEventsBeforeHandler } from '../../src/event-log/queries/list-events-before/list-events-before.handler';
import { ListEventsBefore } from '../../src/event-log/queries/list-events-before/list-events-before.query';
import { type EventStoreTarget, eventStoreTargets } from '../fixtures/event-store-targets';

jest.setTimeout(120_000);

describe.each(eventStoreTargets())('a stream read from its newest end on %s', (_name, openTarget) => {
  let target: EventStoreTarget;
  let handler: ListEventsBeforeHandler;

  beforeAll(async () => {
    target = await openTarget();
    handler = new ListEventsBeforeHandler(target.store);
    await target.store.append(
      'session-history',
      'no_stream',
      Array.from({ length: 1_050 }, (_, i) => ({ type: 'cli.assistant.message_delta', data: { i } })),
    );
    await target.store.append('session-other', 'no_stream', [{ type: 'session.created', data: {} }]);
  });
  afterAll(() => target?.close());

  const positions = (events: Array<{ streamPosition: number }>) => events.map((e) => e.streamPosition);

  it('pages back from the newest event to the first, oldest first within a page, every event once', async () => {
    const newest = await handler.execute(new ListEventsBefore('session-history', 500));
    expect(newest).toMatchObject({ hasEarlier: true, version: 1_050 });
    expect(positions(newest.events)).toEqual(Array.from({ length: 500 }, (_, i) => 551 + i));
    expect(newest.events.every((e) => e.streamId === 'session-history')).toBe(true);

    const seen = [...positions(newest.events)];
    let page = newest;
    while (page.hasEarlier) {
      page = await handler.execute(new ListEventsBefore('session-history', 500, page.events[0].streamPosition));
      seen.unshift(...positions(page.events));
    }
    expect(positions(page.events)).toEqual(Array.from({ length: 50 }, (_, i) => 1 + i));
    expect(seen).toEqual(Array.from({ length: 1_050 }, (_, i) => i + 1));
  });

  it('answers an empty page for a stream with nothing before the position, and for no stream', async () => {
    expect(await handler.execute(new ListEventsBefore('session-history', 10, 1))).toEqual({ events: [], hasEarlier: false, version: 1_050 });
    expect(await handler.execute(new ListEventsBefore('session-missing', 10))).toEqual({ events: [], hasEarlier: false, version: 0 });
  });

  it('reads a position past the end as the newest page, and ignores what is appended after its version', async () => {
    const past = await handler.execute(new ListEventsBefore('session-history', 3, 99_999));
    expect(positions(past.events)).toEqual([1_048, 1_049, 1_050]);
    await target.store.append('session-history', 'any', [{ type: 'cli.session.idle', data: {} }]);
    const before = await handler.execute(new ListEventsBefore('session-history', 3, 1_050));
    expect(positions(before.events)).toEqual([1_047, 1_048, 1_049]);
    expect(before.version).toBe(1_051);
  });
});
