import { EventStore } from '../../src/event-store/event-store';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';

const TOKEN = 'e2e-token-0123456789';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const body = async (response: Response): Promise<any> => response.json();

describe('event log API over HTTP', () => {
  let running: RunningApp;
  let store: EventStore;
  const get = (path: string, token: string | null = TOKEN) =>
    fetch(`${running.baseUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  beforeAll(async () => {
    running = await startTestApp({ apiToken: TOKEN });
    store = running.app.get(EventStore);
    await store.append('thing-1', 'no_stream', [
      { type: 'thing.created', data: { n: 1 }, metadata: { actor: 'alice' } },
      { type: 'thing.renamed', data: { n: 2 } },
    ]);
    await store.append('thing-2', 'no_stream', [{ type: 'thing.created', data: { n: 3 } }]);
  });
  afterAll(() => running.close());

  it('keeps /health open without a token, its detail for the token', async () => {
    const response = await get('/health', null);
    expect(response.status).toBe(200);
    expect(await body(response)).toMatchObject({ status: 'ok', checks: { database: 'ok' } });
    expect(await body(await get('/health'))).toMatchObject({ database: { status: 'up', headPosition: 3 } });
  });

  it('refuses API calls without the token or with a wrong one, saying what to send', async () => {
    for (const token of [null, 'wrong-token-wrong-token']) {
      const response = await get('/api/events', token);
      expect(response.status).toBe(401);
      expect((await body(response)).message).toContain('Authorization: Bearer');
    }
  });

  it('pages through the whole log by global position without skipping or repeating', async () => {
    const first = await body(await get('/api/events?limit=2'));
    expect(first.events.map((e: { globalPosition: number }) => e.globalPosition)).toEqual([1, 2]);
    expect(first.events[0]).toMatchObject({ streamId: 'thing-1', type: 'thing.created', metadata: { actor: 'alice' } });
    const second = await body(await get(`/api/events?after=${first.nextAfter}&limit=2`));
    expect(second.events.map((e: { globalPosition: number }) => e.globalPosition)).toEqual([3]);
    const third = await body(await get(`/api/events?after=${second.nextAfter}`));
    expect(third).toEqual({ events: [], nextAfter: 3 });
  });

  it('answers 400 naming the field for a bad page parameter', async () => {
    for (const query of ['limit=0', 'limit=5000', 'after=-1', 'limit=abc']) {
      const response = await get(`/api/events?${query}`);
      expect(response.status).toBe(400);
      const payload = await body(response);
      expect(payload.code).toBe('invalid_input');
      expect(payload.message).toMatch(/^(limit|after):/);
    }
  });

  it("shows a stream's version and its events, and 404 for an unknown stream", async () => {
    const stream = await body(await get('/api/streams/thing-1'));
    expect(stream).toMatchObject({ streamId: 'thing-1', category: 'thing', version: 2, lastEventType: 'thing.renamed' });
    const events = await body(await get('/api/streams/thing-1/events?after=1'));
    expect(events.events.map((e: { type: string }) => e.type)).toEqual(['thing.renamed']);
    for (const path of ['/api/streams/nope', '/api/streams/nope/events']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(await body(response)).toMatchObject({ code: 'not_found', message: 'Stream nope does not exist' });
    }
  });

  it('serves an OpenAPI document that covers every route', async () => {
    const response = await get('/api/docs-json');
    expect(response.status).toBe(200);
    const document = await body(response);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/health', '/api/events', '/api/streams/{streamId}', '/api/streams/{streamId}/events']),
    );
  });
});
