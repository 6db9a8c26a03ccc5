import Database from 'better-sqlite3';
import * as net from 'node:net';
import * as path from 'node:path';
import type { SwitchboardConfig } from '../../src/config/switchboard-config';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { parsePrometheusText, sampleValue } from '../fixtures/prometheus-text';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { makeTempDir } from '../fixtures/temp-dir';
import { testConfig } from '../fixtures/test-config';
import { waitUntil } from '../fixtures/wait-until';

const TOKEN = 'health-test-token-0123456789';
/** The provider every app here is given: the scripted model server, which answers GET /v1/models. */
const model = new ScriptedModelServer();
const PROVIDER = { type: 'openai' as const, baseUrl: '', apiKey: 'test' };
beforeAll(async () => {
  await model.start();
  PROVIDER.baseUrl = model.baseUrl;
});
afterAll(() => model.stop());

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * /health, /health/live and /health/ready over real HTTP on the real app: open without the token, 503
 * naming each failing check; the detail (why, paths, hosts, pids) only with the token.
 */
describe('liveness and readiness', () => {
  const apps: Array<{ running: RunningApp; cleanup(): void }> = [];
  const start = async (cli: Partial<SwitchboardConfig['cli']>, { apiToken }: { apiToken?: string } = { apiToken: TOKEN }) => {
    const { dir, cleanup } = makeTempDir();
    const running = await startTestApp({ apiToken, cli: { ...testConfig(dir).cli, ...cli } }, dir);
    apps.push({ running, cleanup });
    return {
      running,
      dir,
      /** Without the token: ok or failing per check. */
      anonymous: jsonHttp(() => running.baseUrl),
      /** With the token: the detail. */
      http: jsonHttp(() => running.baseUrl, { authorization: `Bearer ${TOKEN}` }),
    };
  };
  afterAll(async () => {
    for (const { running, cleanup } of apps) {
      await running.stop();
      cleanup();
    }
  });

  it('is ready when the database, migrations, projections, CLI binary and provider are all fine', async () => {
    const { http, anonymous } = await start({ provider: PROVIDER });
    expect((await anonymous('GET', '/api/sessions')).status).toBe(401); // the token is on
    const live = await http('GET', '/health/live');
    expect(live).toMatchObject({ status: 200, body: { status: 'live', pid: process.pid } });
    expect(await anonymous('GET', '/health/live')).toMatchObject({ status: 200, body: { status: 'live' } });
    expect((await anonymous('GET', '/health/live')).body.pid).toBeUndefined();
    const ready = await waitUntil(async () => {
      const r = await http('GET', '/health/ready');
      return r.status === 200 && r;
    }, 'readiness');
    expect(ready.body).toMatchObject({
      status: 'ready',
      failing: [],
      checks: {
        database: { ok: true },
        migrations: { ok: true },
        projections: { ok: true, projections: [expect.objectContaining({ name: 'audit-log', state: 'live', lag: 0 })] },
        // Not started for the probe: the CLI starts with the first session.
        copilotCli: { ok: true, running: false },
        provider: { ok: true, kind: 'provider', answering: true, endpoint: `${model.baseUrl}/models`, lastAnsweredAt: expect.any(String) },
      },
    });
    // /health keeps its detail and shows each projection's state.
    const detail = await http('GET', '/health');
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ status: 'ok', database: { status: 'up' }, projections: [{ name: 'audit-log', state: 'live' }] });

    // Without the token: each check ok or failing, no file, pid, host name or address.
    const everyCheckOk = { database: 'ok', migrations: 'ok', projections: 'ok', copilotCli: 'ok', provider: 'ok' };
    expect(await anonymous('GET', '/health')).toEqual({ status: 200, body: { status: 'ok', checks: everyCheckOk } });
    expect(await anonymous('GET', '/health/ready')).toEqual({ status: 200, body: { status: 'ready', failing: [], degraded: [], checks: everyCheckOk } });
    const wrongToken = jsonHttp(() => apps.at(-1)!.running.baseUrl, { authorization: 'Bearer not-the-token-0123456789' });
    expect((await wrongToken('GET', '/health')).body).toEqual({ status: 'ok', checks: everyCheckOk });
  });

  it('names every failing check and why: no provider, a CLI path that is not executable', async () => {
    const { http, anonymous } = await start({ provider: undefined, githubToken: undefined, path: '/nonexistent-switchboard-test/copilot' });
    // Without the token the names only: not the path.
    const named = await anonymous('GET', '/health/ready');
    expect(named).toEqual({
      status: 503,
      body: {
        status: 'not_ready',
        failing: [{ check: 'copilotCli' }, { check: 'provider' }],
        degraded: [],
        checks: { database: 'ok', migrations: 'ok', projections: 'ok', copilotCli: 'failing', provider: 'failing' },
      },
    });
    expect((await anonymous('GET', '/health')).body).toMatchObject({ status: 'ok', checks: { copilotCli: 'failing' } });
    const ready = await http('GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('not_ready');
    expect(ready.body.failing).toEqual([
      { check: 'copilotCli', reason: 'COPILOT_CLI_PATH /nonexistent-switchboard-test/copilot is not an executable file' },
      { check: 'provider', reason: expect.stringMatching(/COPILOT_PROVIDER_BASE_URL .* COPILOT_GITHUB_TOKEN/) },
    ]);
    expect(ready.body.checks).toMatchObject({ database: { ok: true }, migrations: { ok: true }, projections: { ok: true } });
    expect((await anonymous('GET', '/health/live')).status).toBe(200);
  });

  it('keeps the detail for every caller when no token is configured (loopback only)', async () => {
    const { anonymous, dir } = await start({ provider: PROVIDER, path: '/nonexistent-switchboard-test/copilot' }, {});
    expect((await anonymous('GET', '/health')).body).toMatchObject({ database: { status: 'up', file: path.join(dir, 'switchboard.db') } });
    expect((await anonymous('GET', '/health/live')).body).toMatchObject({ pid: process.pid });
    expect((await anonymous('GET', '/health/ready')).body.failing).toEqual([
      { check: 'copilotCli', reason: expect.stringContaining('/nonexistent-switchboard-test') },
    ]);
  });

  it('fails the CLI check when COPILOT_CLI_URL is not reachable, without starting anything', async () => {
    const url = `127.0.0.1:${await closedPort()}`;
    const { http } = await start({ provider: PROVIDER, url });
    const ready = await http('GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.failing).toEqual([{ check: 'copilotCli', reason: expect.stringContaining(`COPILOT_CLI_URL ${url} is not reachable`) }]);

    // After a start that failed, readiness reports that start's failure.
    expect((await http('POST', '/api/sessions', {})).status).toBe(503);
    const afterStart = await http('GET', '/health/ready');
    expect(afterStart.body.failing).toEqual([
      { check: 'copilotCli', reason: expect.stringMatching(new RegExp(`^the Copilot CLI failed to start: Cannot reach the Copilot CLI at ${url}`)) },
    ]);
  });

  it('fails the database check while another writer holds the lock, and the migrations check when one is missing', async () => {
    const { http, dir } = await start({ provider: PROVIDER });
    const outside = new Database(path.join(dir, 'switchboard.db'));
    try {
      await waitUntil(async () => (await http('GET', '/health/ready')).status === 200, 'readiness');

      outside.exec('BEGIN IMMEDIATE');
      const locked = await http('GET', '/health/ready');
      outside.exec('ROLLBACK');
      expect(locked.status).toBe(503);
      expect(locked.body.failing).toEqual([{ check: 'database', reason: expect.stringMatching(/does not take writes: database is locked/) }]);
      expect((await http('GET', '/health/ready')).status).toBe(200);

      const last = outside.prepare('SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1').get() as Json;
      outside.prepare('DELETE FROM __drizzle_migrations WHERE created_at = ?').run(last.created_at);
      const behind = await http('GET', '/health/ready');
      outside.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run(last.hash, last.created_at);
      expect(behind.status).toBe(503);
      expect(behind.body.failing).toEqual([{ check: 'migrations', reason: expect.stringMatching(/^migrations not applied: \d{4}_\w+$/) }]);
      expect((await http('GET', '/health/ready')).status).toBe(200);
    } finally {
      outside.close();
    }
  });
});

/**
 * The model provider as Health sees it: one cheap GET <baseUrl>/models, cached, with a timeout. Its
 * outage is reported (checks.provider not ok, listed under `degraded`) without failing readiness.
 */
describe('a model provider that does not answer', () => {
  const apps: Array<{ running: RunningApp; cleanup(): void }> = [];
  const start = async (provider: SwitchboardConfig['cli']['provider']) => {
    const { dir, cleanup } = makeTempDir();
    const running = await startTestApp({ cli: { ...testConfig(dir).cli, provider } }, dir);
    apps.push({ running, cleanup });
    return jsonHttp(() => running.baseUrl);
  };
  afterAll(async () => {
    for (const { running, cleanup } of apps) {
      await running.stop();
      cleanup();
    }
  });

  it('says at once that a provider nobody listens for cannot be reached, and stays ready', async () => {
    const http = await start({ type: 'openai', baseUrl: `http://127.0.0.1:${await closedPort()}/v1`, apiKey: 'k' });
    const ready = await http('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ready',
      failing: [],
      degraded: [{ check: 'provider', reason: expect.stringMatching(/cannot be reached \(ECONNREFUSED\).*COPILOT_PROVIDER_BASE_URL/) }],
      checks: { provider: { ok: false, answering: false, gatesReadiness: false } },
    });
    expect(ready.body.checks.provider.lastAnsweredAt).toBeUndefined();
  });

  it('gives up on a provider that takes the connection but never answers within its timeout', async () => {
    // Accepts TCP and says nothing: a hung provider or a black-holing proxy.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const http = await start({ type: 'openai', baseUrl: `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/v1`, apiKey: 'k' });
      const started = Date.now();
      // Two callers at once share the one look in flight.
      const [first, second] = await Promise.all([http('GET', '/health/ready'), http('GET', '/health/ready')]);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(sockets).toHaveLength(1);
      for (const answer of [first, second]) {
        expect(answer.body.degraded).toEqual([{ check: 'provider', reason: expect.stringContaining('did not answer within 3000 ms') }]);
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('notices a provider that stopped answering, and keeps when it last answered', async () => {
    const provider = await new ScriptedModelServer().start();
    const http = await start({ type: 'openai', baseUrl: provider.baseUrl, apiKey: 'k' });
    const up = await http('GET', '/health/ready');
    expect(up.body.checks.provider).toMatchObject({ ok: true, answering: true, lastAnsweredAt: expect.any(String) });
    expect(provider.httpLog.filter((r) => r.path === '/v1/models')).toHaveLength(1);
    await provider.stop();
    // Within the answer's cache time (5 s) the next look finds it gone.
    const down = await waitUntil(
      async () => {
        const r = await http('GET', '/health/ready');
        return r.body.checks.provider.ok === false && r;
      },
      'the provider to be seen down',
      10_000,
    );
    expect(down.status).toBe(200);
    expect(down.body.checks.provider).toMatchObject({ answering: false, lastAnsweredAt: up.body.checks.provider.lastAnsweredAt });
    expect(down.body.degraded).toEqual([{ check: 'provider', reason: expect.stringContaining('cannot be reached') }]);
  });
});

/**
 * issue 25: with model calls going through Switchboard, the provider's state comes from the calls
 * themselves: a provider whose calls fail is `degraded` in /health at the first failed call, with the
 * reason, without waiting for a probe (used only when no call went through in the last minute).
 */
describe('the model provider as real model calls find it (real CLI)', () => {
  const provider = new ScriptedModelServer();
  let running: RealCliApp;

  beforeAll(async () => {
    await provider.start();
    running = await startRealCliApp(provider);
  }, 90_000);
  afterAll(async () => {
    await running?.close();
    await provider.stop();
  });

  async function send(sessionId: string, prompt: string): Promise<void> {
    expect((await running.http('POST', `/api/sessions/${sessionId}/messages`, { prompt })).status).toBe(202);
  }

  it('shows the model route and the provider from traffic, then a provider that went down as degraded with the reason', async () => {
    const { http } = running;
    provider.setScript([{ name: 'answer', answer: { text: 'HEALTHY' } }]);
    const created = await http('POST', '/api/sessions', {});
    expect(created.status).toBe(201);
    const { sessionId } = created.body;
    await send(sessionId, 'Say something');
    await waitUntil(async () => (await http('GET', `/api/sessions/${sessionId}`)).body.status === 'idle', 'the turn to end', 60_000);

    const up = await http('GET', '/health');
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({
      status: 'ok',
      degraded: [],
      copilotCli: { running: true, modelRoute: { routed: true } },
      modelCalls: {
        route: { routed: true },
        inFlight: expect.any(Number),
        provider: {
          ok: true,
          source: 'traffic',
          answering: true,
          lastAnsweredAt: expect.any(String),
          traffic: { failures: 0, errorRate: 0, failing: false, ttfbP50Ms: expect.any(Number), durationP50Ms: expect.any(Number) },
        },
      },
    });
    expect(up.body.modelCalls.provider.traffic.calls).toBeGreaterThan(0);

    await provider.stop();
    await send(sessionId, 'Say something else');
    // The first failed call shows: the CLI is still retrying it.
    const down = await waitUntil(
      async () => {
        const r = await http('GET', '/health');
        return r.body.degraded?.length > 0 && r;
      },
      'the failing provider to show in /health',
      20_000,
    );
    expect(down.status).toBe(200);
    expect(down.body.degraded).toEqual([
      {
        check: 'provider',
        reason: expect.stringMatching(
          /^the last model call failed \(\d+ of the last \d+ failed\): the model provider could not be reached: .*COPILOT_PROVIDER_BASE_URL/,
        ),
      },
    ]);
    expect(down.body.modelCalls.provider).toMatchObject({
      ok: false,
      source: 'traffic',
      answering: false,
      lastAnsweredAt: up.body.modelCalls.provider.lastAnsweredAt,
      traffic: { failing: true, lastFailureReason: expect.stringContaining('could not be reached') },
    });
    expect(down.body.modelCalls.provider.traffic.failures).toBeGreaterThan(0);
    // /health/ready and the anonymous summary say the same, and the service stays ready (a provider outage does not gate it).
    const ready = await http('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ready',
      failing: [],
      degraded: [{ check: 'provider', reason: expect.stringContaining('could not be reached') }],
      checks: { provider: { ok: false, source: 'traffic' } },
    });
    // The metrics count the failed calls by outcome (once the CLI took the failed answer: traffic knows it first).
    await waitUntil(async () => {
      const metrics = parsePrometheusText(await (await fetch(`${running.app.baseUrl}/metrics`)).text());
      return (sampleValue(metrics, 'switchboard_model_calls_total', { model: 'gpt-4.1', outcome: 'failed' }) ?? 0) > 0;
    }, 'the failed call to be counted');
  }, 120_000);
});
