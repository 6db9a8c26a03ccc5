import { modelPriceTable } from '../../src/config/model-prices';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { parsePrometheusText, type Sample, sampleValue } from '../fixtures/prometheus-text';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';
import { WebhookRecorder } from '../fixtures/webhook-recorder';

const TOKEN = 'metrics-e2e-token-0123456789';
/** Per million tokens; the scripted model says 10 input and 5 output tokens per call. */
const PRICES = { 'gpt-4.1': { input: 2, output: 8 }, 'claude-sonnet-4': { input: 3, output: 15 } };

async function scrape(baseUrl: string, authorization?: string): Promise<{ status: number; contentType: string | null; text: string }> {
  const response = await fetch(`${baseUrl}/metrics`, { headers: authorization ? { authorization } : {} });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

async function samples(baseUrl: string): Promise<Sample[]> {
  const { status, text } = await scrape(baseUrl, `Bearer ${TOKEN}`);
  expect(status).toBe(200);
  return parsePrometheusText(text);
}

function agent(id: string): Json {
  return { id, name: `Agent ${id}`, description: `${id} does one thing`, system_message: { mode: 'replace', content: `You are ${id}.` } };
}

/** /metrics over real HTTP while the real CLI runs a session whose model calls a webhook tool. */
describe('Prometheus metrics at /metrics', () => {
  const model = new ScriptedModelServer();
  const webhooks = new WebhookRecorder();
  let running: RealCliApp;
  const http = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${TOKEN}` });
  const chatRequests = () => model.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

  beforeAll(async () => {
    await model.start();
    await webhooks.start();
    model.setScript([
      { name: 'calls the tool', who: 'parent', lastIsToolResult: false, answer: { toolCalls: [{ name: 'save_result', arguments: { content: 'x' } }] } },
      { name: 'wraps up', who: 'parent', lastIsToolResult: true, answer: { text: 'METRICS_DONE' } },
    ]);
    running = await startRealCliApp(model, {
      apiToken: TOKEN,
      modelCalls: { route: true, content: 'metadata', contentMaxBytes: 0, prices: modelPriceTable('USD', PRICES) },
    });
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
    await webhooks.stop();
  });

  it('counts appends, commits, routed requests, sessions, HTTP requests by route and CLI restarts as they happen', async () => {
    const base = running.app.baseUrl;
    const before = await samples(base);
    const appendsBefore = sampleValue(before, 'switchboard_event_store_appends_total') ?? 0;
    const refusedBefore = sampleValue(before, 'switchboard_event_store_appends_refused_total') ?? 0;
    expect(sampleValue(before, 'switchboard_routed_requests_total', { kind: 'tool_call', outcome: 'success' })).toBeUndefined();
    expect(sampleValue(before, 'switchboard_cli_restarts_total')).toBe(0);
    expect(sampleValue(before, 'switchboard_cli_up')).toBe(0); // started by the first session
    expect(sampleValue(before, 'switchboard_sessions', { status: 'idle' })).toBe(0);
    // Priced models show from the start, at 0.
    expect(sampleValue(before, 'switchboard_model_calls_total', { model: 'gpt-4.1', outcome: 'succeeded' })).toBe(0);
    expect(sampleValue(before, 'switchboard_model_calls_total', { model: 'claude-sonnet-4', outcome: 'refused' })).toBe(0);

    const created = await http('POST', '/api/sessions', {
      tools: [
        {
          name: 'save_result',
          description: 'Saves a result',
          parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
          handler: { type: 'webhook', url: webhooks.url('/save_result') },
        },
      ],
    });
    expect(created.status).toBe(201);
    const id = created.body.sessionId as string;
    expect((await http('POST', `/api/sessions/${id}/messages`, { prompt: 'save it' })).status).toBe(202);
    await waitUntil(async () => (await http('GET', `/api/sessions/${id}`)).body.status === 'idle', 'the turn to end', 60_000);
    expect(webhooks.callsTo('/save_result')).toHaveLength(1);
    expect((await fetch(`${base}/no/such/route/${id}`)).status).toBe(404);
    const graphql = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(graphql.status).toBe(200);

    // The async audit projection catches up; its lag is read at scrape time.
    const after = await waitUntil(
      async () => {
        const s = await samples(base);
        const caughtUp = sampleValue(s, 'switchboard_projection_lag_events', { projection: 'audit-log' }) === 0;
        // Every chat request the model saw has ended in Switchboard too (a call is counted once its answer went back).
        const callsEnded =
          sampleValue(s, 'switchboard_model_calls_in_flight') === 0 &&
          sampleValue(s, 'switchboard_model_calls_total', { model: 'gpt-4.1', outcome: 'succeeded' }) === chatRequests();
        return caughtUp && callsEnded ? s : undefined;
      },
      'the audit-log projection to catch up and the model calls to end',
      10_000,
    );

    const appendsAfter = sampleValue(after, 'switchboard_event_store_appends_total')!;
    expect(appendsAfter).toBeGreaterThan(appendsBefore);
    expect(sampleValue(after, 'switchboard_event_store_commits_total', { outcome: 'committed' })).toBeGreaterThan(0);
    expect(sampleValue(after, 'switchboard_event_store_commits_total', { outcome: 'failed' })).toBe(0);
    expect(sampleValue(after, 'switchboard_event_store_commit_duration_seconds_count')).toBe(
      sampleValue(after, 'switchboard_event_store_commits_total', { outcome: 'committed' }),
    );
    // Every append that was not refused (a command's version conflict, retried) wrote at least one event.
    const refused = sampleValue(after, 'switchboard_event_store_appends_refused_total')! - refusedBefore;
    expect(refused).toBeGreaterThanOrEqual(0);
    expect(sampleValue(after, 'switchboard_event_store_events_total')).toBeGreaterThanOrEqual(appendsAfter - appendsBefore - refused);
    expect(sampleValue(after, 'switchboard_event_store_head_position')).toBeGreaterThan(0);
    expect(sampleValue(after, 'switchboard_routed_requests_total', { kind: 'tool_call', outcome: 'success' })).toBe(1);
    expect(sampleValue(after, 'switchboard_sessions', { status: 'idle' })).toBe(1);
    expect(sampleValue(after, 'switchboard_sessions', { status: 'failed' })).toBe(0);
    expect(sampleValue(after, 'switchboard_runs', { status: 'running' })).toBe(0);
    expect(sampleValue(after, 'switchboard_cli_up')).toBe(1);

    // Every model call went through Switchboard: counted by model and outcome, with its latency, tokens and cost.
    const chats = chatRequests();
    expect(chats).toBeGreaterThanOrEqual(2);
    const gpt = { model: 'gpt-4.1' };
    expect(sampleValue(after, 'switchboard_model_calls_total', { ...gpt, outcome: 'succeeded' })).toBe(chats);
    expect(sampleValue(after, 'switchboard_model_calls_total', { ...gpt, outcome: 'failed' })).toBe(0);
    expect(sampleValue(after, 'switchboard_model_call_duration_seconds_count', gpt)).toBe(chats);
    expect(sampleValue(after, 'switchboard_model_call_ttfb_seconds_count', gpt)).toBe(chats);
    expect(sampleValue(after, 'switchboard_model_call_ttfb_seconds_sum', gpt)).toBeLessThanOrEqual(
      sampleValue(after, 'switchboard_model_call_duration_seconds_sum', gpt)!,
    );
    expect(sampleValue(after, 'switchboard_model_tokens_total', { ...gpt, kind: 'input' })).toBe(10 * chats);
    expect(sampleValue(after, 'switchboard_model_tokens_total', { ...gpt, kind: 'output' })).toBe(5 * chats);
    expect(sampleValue(after, 'switchboard_model_cost_total', { ...gpt, currency: 'USD' })).toBeCloseTo(chats * ((10 * 2 + 5 * 8) / 1e6), 9);
    expect(sampleValue(after, 'switchboard_model_calls_unpriced_total', gpt)).toBeUndefined();
    expect(sampleValue(after, 'switchboard_model_calls_in_flight')).toBe(0);

    // Route patterns, never raw URLs (ids would make a series each).
    const duration = 'switchboard_http_request_duration_seconds_count';
    expect(sampleValue(after, duration, { method: 'POST', route: '/api/sessions', status_code: '201' })).toBe(1);
    expect(sampleValue(after, duration, { method: 'POST', route: '/api/sessions/:id/messages', status_code: '202' })).toBe(1);
    expect(sampleValue(after, duration, { method: 'GET', route: '/api/sessions/:id' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(after, duration, { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(sampleValue(after, duration, { method: 'POST', route: '/graphql', status_code: '200' })).toBe(1);
    const routes = new Set(after.filter((s) => s.name === duration).map((s) => s.labels.route));
    expect([...routes].filter((r) => r.includes(id))).toEqual([]);

    // The process's own metrics come along.
    expect(sampleValue(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(after.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);

    // The CLI dies: the restart is counted.
    const { pid } = (await http('GET', '/health')).body.copilotCli;
    process.kill(pid, 'SIGKILL');
    const restarted = await waitUntil(
      async () => {
        const s = await samples(base);
        return sampleValue(s, 'switchboard_cli_restarts_total') === 1 && sampleValue(s, 'switchboard_cli_up') === 1 ? s : undefined;
      },
      'the CLI restart to be counted',
      30_000,
    );
    expect(sampleValue(restarted, 'switchboard_sessions', { status: 'interrupted' })).toBe(1);
  }, 120_000);

  it('needs the API token like /api', async () => {
    const base = running.app.baseUrl;
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TOKEN]) {
      const refused = await scrape(base, authorization);
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.text)).toMatchObject({ statusCode: 401, code: 'unauthorized', message: expect.stringContaining('Authorization: Bearer') });
    }
    const allowed = await scrape(base, `Bearer ${TOKEN}`);
    expect(allowed.status).toBe(200);
    expect(allowed.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });
});

describe('/metrics access and per-app registries', () => {
  const apps: RunningApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  it('is open without a token when SWITCHBOARD_METRICS_PUBLIC=true, while /api still needs it', async () => {
    const app = await startTestApp({ apiToken: TOKEN, metrics: { public: true } });
    apps.push(app);
    expect((await scrape(app.baseUrl)).status).toBe(200);
    expect((await fetch(`${app.baseUrl}/api/agents`)).status).toBe(401);
  });

  it('is open like /api when no token is configured', async () => {
    const app = await startTestApp({});
    apps.push(app);
    expect((await scrape(app.baseUrl)).status).toBe(200);
  });

  it('keeps each app instance to its own counters when several run in one process', async () => {
    const a = await startTestApp({ apiToken: TOKEN });
    const b = await startTestApp({ apiToken: TOKEN });
    apps.push(a, b);
    const appendsOf = async (app: RunningApp) => sampleValue(await samples(app.baseUrl), 'switchboard_event_store_appends_total') ?? 0;
    const [a0, b0] = [await appendsOf(a), await appendsOf(b)];
    const httpA = jsonHttp(() => a.baseUrl, { authorization: `Bearer ${TOKEN}` });
    for (const id of ['one', 'two', 'three']) expect((await httpA('POST', '/api/agents', agent(id))).status).toBe(201);
    expect(await appendsOf(a)).toBe(a0 + 3);
    expect(await appendsOf(b)).toBe(b0);
    const agentsOnA = sampleValue(await samples(a.baseUrl), 'switchboard_http_request_duration_seconds_count', {
      method: 'POST',
      route: '/api/agents',
      status_code: '201',
    });
    expect(agentsOnA).toBe(3);
    expect(
      sampleValue(await samples(b.baseUrl), 'switchboard_http_request_duration_seconds_count', { method: 'POST', route: '/api/agents' }),
    ).toBeUndefined();
  });
});
