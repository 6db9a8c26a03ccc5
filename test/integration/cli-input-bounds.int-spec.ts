import * as net from 'node:net';
import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { testConfig } from '../fixtures/test-config';
import { waitUntil } from '../fixtures/wait-until';

const ONE_MIB = 1024 * 1024;

/** The fake CLI's socket to the service (one client: the service). */
const serviceSocket = (h: SessionHarness): net.Socket => (h.fake['clients'] as { socket: net.Socket }[]).at(-1)!.socket;

/**
 * What the CLI may make the service hold: a frame over SWITCHBOARD_CLI_MAX_MESSAGE_BYTES is broken
 * framing (the CLI is dropped and restarted, its sessions interrupted), and live sessions are capped
 * by SWITCHBOARD_MAX_LIVE_SESSIONS (429). The fake CLI over TCP injects the oversized frame.
 */
describe('bounds on what the CLI and callers can make the service hold (fake CLI, real app, real SQLite)', () => {
  let h: SessionHarness;

  beforeAll(async () => {
    const defaults = testConfig('/tmp');
    h = await startSessionHarness({ config: { resilience: { ...defaults.resilience, cliMaxMessageBytes: ONE_MIB, maxLiveSessions: 2 } } });
  }, 30_000);
  afterAll(() => h?.close());

  const status = async (id: string) => (await h.http('GET', `/api/sessions/${id}`)).body.status;
  const create = () => h.http('POST', '/api/sessions', {});

  it('drops the CLI at the header of a frame announced over the limit, without waiting for its body, and stays healthy', async () => {
    const created = await create();
    expect(created.status).toBe(201);
    const id = created.body.sessionId as string;

    // A big frame under the limit is read as usual.
    const big = 'b'.repeat(512 * 1024);
    await h.fake.emitEvent(id, { type: 'assistant.message', data: { content: big } });
    await waitUntil(async () => {
      const events = (await h.http('GET', `/api/streams/session-${id}/events?limit=100`)).body.events as Json[];
      return events.some((e) => e.type === 'cli.assistant.message' && e.data.payload.content === big);
    }, 'the 512 KiB event to be recorded');

    // 400 MB announced, 64 KiB sent: the service must not sit waiting for (and buffering) the rest.
    const generation = (await h.http('GET', '/health')).body.copilotCli.generation as number;
    const socket = serviceSocket(h);
    const dropped = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await h.fake.sendRaw(Buffer.concat([Buffer.from('Content-Length: 400000000\r\n\r\n', 'ascii'), Buffer.alloc(64 * 1024, 'x')]));
    await dropped;

    const session = await waitUntil(async () => {
      const s = (await h.http('GET', `/api/sessions/${id}`)).body;
      return s.status === 'interrupted' && s;
    }, 'the session to be interrupted');
    expect(session.statusReason).toMatch(/Copilot CLI exited/);
    const cli = await waitUntil(async () => {
      const health = await h.http('GET', '/health');
      return health.status === 200 && health.body.copilotCli.running && health.body.copilotCli.generation > generation && health.body.copilotCli;
    }, 'the CLI connection to be re-established');
    expect(cli.generation).toBe(generation + 1);

    expect(await h.http('POST', `/api/sessions/${id}/resume`)).toMatchObject({ status: 200, body: { status: 'idle' } });
    expect((await h.http('POST', `/api/sessions/${id}/messages`, { prompt: 'still there?' })).status).toBe(202);
  });

  it('answers 429 past SWITCHBOARD_MAX_LIVE_SESSIONS, on create and on resume, naming the variable and the count', async () => {
    // One session is live from the test above (resumed, then given a message).
    const second = await create();
    expect(second.status).toBe(201);
    const refused = await create();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'too_many_live_sessions', details: { max: 2, live: 2 } });
    expect(refused.body.message).toMatch(/2 of SWITCHBOARD_MAX_LIVE_SESSIONS=2 are live/);
    // Refused before anything was recorded: no failed session is left behind.
    expect((await h.http('GET', '/api/sessions?limit=100')).body.sessions).toHaveLength(2);

    // A destroyed session frees its slot.
    expect((await h.http('DELETE', `/api/sessions/${second.body.sessionId}`)).status).toBe(200);
    const third = await create();
    expect(third.status).toBe(201);

    // Interrupted sessions are not live: after a CLI drop two new ones fit, and a resume past the cap is refused.
    await h.fake.dropConnections();
    await waitUntil(async () => (await status(third.body.sessionId)) === 'interrupted', 'the sessions to be interrupted');
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(201);
    const resume = await h.http('POST', `/api/sessions/${third.body.sessionId}/resume`);
    expect(resume.status).toBe(429);
    expect(resume.body.message).toMatch(/SWITCHBOARD_MAX_LIVE_SESSIONS=2/);
    expect(await status(third.body.sessionId)).toBe('interrupted');
  });
});
