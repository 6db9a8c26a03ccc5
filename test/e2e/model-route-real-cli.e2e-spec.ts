import * as fs from 'node:fs';
import { CopilotCliConnection } from '../../src/copilot-cli/copilot-cli-connection';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

const TOKEN = 'model-route-token-0123456789';
const PROVIDER_KEY = 'sk-provider-key-never-in-the-cli-4f1c';

/**
 * spec: issue 25, Route. The real Copilot CLI hands every model call to Switchboard
 * (`llmInference.setProvider`), which forwards it to the provider with its own key, streams the answer
 * back and keeps each call as a `model_call-<id>` stream. The key never reaches the CLI.
 */
describe('model calls routed through Switchboard (real CLI)', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${TOKEN}` });

  beforeAll(async () => {
    await model.start();
    running = await startRealCliApp(model, {
      apiToken: TOKEN,
      cli: { provider: { type: 'openai', baseUrl: model.baseUrl, apiKey: PROVIDER_KEY } } as never,
    });
  }, 90_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  async function turn(sessionId: string, prompt: string): Promise<void> {
    const sent = await http('POST', `/api/sessions/${sessionId}/messages`, { prompt });
    expect(sent.status).toBe(202);
    await waitUntil(async () => (await http('GET', `/api/sessions/${sessionId}`)).body.status === 'idle', 'the turn to end', 60_000);
  }

  async function callEvents(): Promise<Json[]> {
    const page = await http('GET', '/api/events?limit=1000');
    return (page.body.events as Json[]).filter((e) => String(e.streamId).startsWith('model_call-'));
  }

  it('sends each call to the provider with Switchboard’s key, streams the answer chunk by chunk, and records it', async () => {
    model.setScript([{ name: 'answer', answer: { text: 'one two three four five' }, chunkDelayMs: 5 }]);
    const created = await http('POST', '/api/sessions', {});
    expect(created.status).toBe(201);
    const { sessionId } = created.body;
    await turn(sessionId, 'Say five words');

    const cli = running.app.app.get(CopilotCliConnection);
    expect(cli.modelRoute()).toEqual({ routed: true });
    // The provider saw Switchboard's key on every call; the CLI was given none.
    const chats = model.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(chats.length).toBeGreaterThan(0);
    for (const request of chats) expect(request.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
    const { pid } = cli.status();
    expect(fs.readFileSync(`/proc/${pid}/environ`, 'utf8')).not.toContain(PROVIDER_KEY);

    const events = await callEvents();
    const started = events.filter((e) => e.type === 'model_call.started' && e.data.sessionId === sessionId);
    const finished = events.filter((e) => e.type === 'model_call.finished' && e.data.sessionId === sessionId);
    expect(started.length).toBe(chats.length);
    expect(finished.length).toBe(started.length);
    expect(started[0].data).toMatchObject({
      cliAgentId: sessionId,
      agentName: 'main',
      lineagePath: ['main'],
      model: 'gpt-4.1',
      provider: 'openai',
      stream: true,
    });
    expect(started[0].data.request).toContain('Say five words');
    expect(JSON.stringify(events)).not.toContain(PROVIDER_KEY);
    expect(finished[0].data).toMatchObject({ status: 200, responseId: expect.stringMatching(/^chatcmpl-/), finishReason: 'stop' });
    // Streamed: the answer came in more than one chunk and is kept whole.
    expect(finished[0].data.chunks).toBeGreaterThan(1);
    expect(finished[0].data.answer).toContain('five');
  }, 120_000);
});
