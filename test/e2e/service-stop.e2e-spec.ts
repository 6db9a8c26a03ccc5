import { type SessionHarness, startSessionHarness } from '../fixtures/session-harness';

/** How a stream a client follows ends when the service stops: by the service, not by a cut connection. */
async function follow(url: string): Promise<{ status: number; end: Promise<string> }> {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
  const reader = response.body!.getReader();
  const end = (async () => {
    try {
      while (!(await reader.read()).done);
      return 'ended by the service';
    } catch (error) {
      return `cut: ${(error as Error).message}`;
    }
  })();
  return { status: response.status, end };
}

describe('stopping the service with streams open', () => {
  let h: SessionHarness;

  beforeAll(async () => {
    h = await startSessionHarness();
  });

  afterAll(async () => {
    await h.close();
  });

  it('ends every Server-Sent Events stream itself, before the HTTP drain would cut it', async () => {
    const sessionId = await h.createTeamSession();
    const first = await follow(`${h.app.baseUrl}/api/sessions/${sessionId}/events`);
    const second = await follow(`${h.app.baseUrl}/api/sessions/${sessionId}/events?after=1`);
    expect([first.status, second.status]).toEqual([200, 200]);

    // GraphQL's drain (its own destroy hook) waits for open requests and cuts what is left after
    // 10 s: streams that were still open when it began would end as `cut: terminated`.
    await h.app.stop();
    expect(await first.end).toBe('ended by the service');
    expect(await second.end).toBe('ended by the service');
  });
});
