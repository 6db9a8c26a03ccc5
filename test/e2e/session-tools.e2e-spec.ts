import * as fs from 'node:fs';
import * as path from 'node:path';
import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, type JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';

/**
 * spec: agent-teams FR-3, the chat's Tools and MCP selectors, on the real Copilot CLI: a session as a library
 * agent gets the agent's built-in tool allowlist by default, the session's choice replaces it, and the
 * tools the model is offered prove what the CLI was told. MCP servers are picked by name from the
 * operator's registry; an unknown name is refused before anything is recorded.
 */
describe("a session's built-in tools and MCP servers on the real Copilot CLI", () => {
  const model = new ScriptedModelServer();
  const registry = makeTempDir();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);

  beforeAll(async () => {
    await model.start();
    model.setScript([{ name: 'answer', who: 'parent', answer: { text: 'OK' } }]);
    const mcpConfigFile = path.join(registry.dir, 'mcp-config.json');
    fs.writeFileSync(mcpConfigFile, JSON.stringify({ mcpServers: { docs: { type: 'http', url: 'http://127.0.0.1:9/mcp', tools: ['*'] } } }));
    running = await startRealCliApp(model, { mcpConfigFile });
    const created = await http('POST', '/api/agents', {
      id: 'searcher',
      name: 'Searcher',
      description: 'Searches the code',
      system_message: { mode: 'append', content: 'SEARCHER_RULES' },
      tools: { builtin: ['grep'] },
    });
    expect(created.status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
    registry.cleanup();
  });

  /** The tools the model was offered for the session's first turn. */
  async function offeredTools(body: Json, marker: string): Promise<string[]> {
    const created = await http('POST', '/api/sessions', body);
    expect(created.status).toBe(201);
    await http('POST', `/api/sessions/${created.body.sessionId}/messages`, { prompt: marker });
    const [request] = await model.waitForRequests((r) => JSON.stringify(r.lastMessage).includes(marker));
    return request.toolNames;
  }

  it("offers the agent's allowlist by default, and the session's choice instead when it makes one", async () => {
    const byAgent = await offeredTools({ agentId: 'searcher' }, 'MARKER_AGENT_DEFAULT');
    expect(byAgent).toContain('grep');
    expect(byAgent).not.toContain('view');

    const chosen = await offeredTools({ agentId: 'searcher', availableTools: ['view'], delegation: true }, 'MARKER_SESSION_CHOICE');
    expect(chosen).toContain('view');
    expect(chosen).not.toContain('grep');
    // The session's own tools stay whatever the built-in choice: delegation's agent_run is still offered.
    expect(chosen).toContain('agent_run');
  }, 60_000);

  it("suggests the built-in tools the installed CLI offers its model (tools.list), ask_user included, and no capture's test tool", async () => {
    const suggested = (await graphqlHttp(() => running.app.baseUrl)('{ knownBuiltinTools }')).body.data.knownBuiltinTools as string[];
    // A session without an allowlist: the model is offered every built-in, and Switchboard's own tools.
    const offered = await offeredTools({}, 'MARKER_EVERY_TOOL');
    const own = ['agent_run', 'agent_stop', 'agent_output'];
    const builtins = offered.filter((name) => !own.includes(name));
    expect(builtins).toContain('ask_user');
    expect(builtins).toContain('view');
    for (const name of builtins) expect(suggested).toContain(name);
    expect(suggested).not.toContain('lookup_secret');
  });

  it('takes MCP servers by name from the registry and refuses an unknown one, naming what there is', async () => {
    const refused = await http('POST', '/api/sessions', { agentId: 'searcher', mcpServers: ['docs', 'nope'] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('nope');
    expect(refused.body.message).toContain('it has docs');

    const created = await http('POST', '/api/sessions', { agentId: 'searcher', mcpServers: ['docs'] });
    expect(created.status).toBe(201);
    const recorded = await waitUntil(async () => {
      const events = (await http('GET', `/api/streams/session-${created.body.sessionId}/events?limit=10`)).body.events as Json[];
      return events.find((e) => e.type === 'session.created');
    }, 'session.created');
    expect(recorded.data.config).toMatchObject({ agentId: 'searcher', availableTools: ['grep'], mcpServers: ['docs'] });
  }, 60_000);
});
