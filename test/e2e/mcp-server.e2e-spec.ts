import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, TextContent } from '@modelcontextprotocol/sdk/types.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../../src/config/switchboard-config';
import { type Json, type JsonHttp, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';

const TOKEN = 'mcp-e2e-token-0123456789';

/**
 * issue 43: `/mcp` driven by the official MCP SDK's client (nobody here wrote it) on the real app and the
 * real Copilot CLI with a scripted model: a lead that delegates to a researcher in the foreground answers
 * `run_agent` with its output, the client hears each step as a progress notification, and the run is the
 * key's in the service's record. A viewer key reads but cannot start a run; bad input is a tool error.
 */
describe('the MCP server at /mcp, through the MCP SDK client', () => {
  const model = new ScriptedModelServer();
  let releaseSlow: () => void = () => undefined;
  let running: RealCliApp;
  let operator: JsonHttp;
  const clients: Client[] = [];

  /** A connected client with `key`'s identity. */
  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'switchboard-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${running.app.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  async function key(role: string): Promise<{ key: string; id: string }> {
    const created = await operator('POST', '/api/keys', { name: `mcp-${role}`, role });
    expect(created.status).toBe(201);
    return { key: created.body.key as string, id: created.body.apiKey.id as string };
  }

  const textOf = (result: CallToolResult) => (result.content[0] as TextContent).text;

  beforeAll(async () => {
    await model.start();
    model.setScript([
      {
        name: 'lead delegates',
        systemIncludes: 'LEAD_M',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'researcher', prompt: 'RESEARCH the topic', background: false } }] },
      },
      { name: 'lead answers', systemIncludes: 'LEAD_M', lastIsToolResult: true, answer: { text: 'LEAD_SAYS_42' } },
      { name: 'researcher answers', systemIncludes: 'RESEARCHER_M', answer: { text: 'RESEARCHER_FOUND_42' } },
      {
        name: 'slow thinks',
        systemIncludes: 'SLOW_M',
        until: new Promise((resolve) => (releaseSlow = () => resolve(undefined))),
        answer: { text: 'SLOW_DONE' },
      },
    ]);
    running = await startRealCliApp(model, { apiToken: TOKEN, security: { ...loadConfig({}).security } });
    operator = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${TOKEN}` });
    for (const agent of [
      { id: 'researcher', name: 'Researcher', description: 'Finds things out', system_message: { mode: 'append', content: 'RESEARCHER_M you research.' } },
      {
        id: 'lead',
        name: 'Lead',
        description: 'Leads the research',
        sub_agents: ['researcher'],
        system_message: { mode: 'append', content: 'LEAD_M you delegate.' },
      },
      { id: 'slow', name: 'Slow', description: 'Takes its time', system_message: { mode: 'append', content: 'SLOW_M you think.' } },
    ]) {
      expect((await operator('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    releaseSlow();
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await running?.close();
    await model.stop();
  });

  it("runs a delegating team for an operator key, with progress, and records the run as the key's", async () => {
    const operatorKey = await key('operator');
    const client = await connect(operatorKey.key);
    expect(client.getServerVersion()?.name).toBe('switchboard');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['decide_approval', 'get_run', 'list_agents', 'list_approvals', 'run_agent', 'steer_run', 'stop_run']);
    expect(tools.find((t) => t.name === 'list_agents')?.annotations?.readOnlyHint).toBe(true);

    const agents = await client.callTool({ name: 'list_agents', arguments: {} });
    expect(textOf(agents as CallToolResult)).toContain('- lead (Lead): Leads the research [team: researcher]');

    const progress: string[] = [];
    const result = (await client.callTool({ name: 'run_agent', arguments: { agent: 'lead', prompt: 'What is the answer?' } }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ''),
      timeout: 120_000,
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('LEAD_SAYS_42');
    const structured = result.structuredContent as Json;
    expect(structured).toMatchObject({ agentId: 'lead', status: 'completed', output: 'LEAD_SAYS_42' });
    // Each step as it happened: the lead's run, its agent_run call, the researcher's run and its end.
    expect(progress[0]).toMatch(/^run .* of lead started$/);
    expect(progress.filter((m) => / of lead started$/i.test(m))).toHaveLength(1);
    expect(progress).toContain('tool agent_run');
    expect(progress.some((m) => /^run \w+ of Researcher started$/.test(m))).toBe(true);

    // The service's record: the run, its child, and the key as the actor that started it.
    const run = (await operator('GET', `/api/runs/${structured.runId}`)).body;
    expect(run).toMatchObject({ status: 'completed', agentId: 'lead' });
    const events = (await operator('GET', `/api/streams/run-${structured.runId}/events`)).body.events as Json[];
    expect(events.find((e) => e.type === 'run.started')?.metadata.by).toEqual({ kind: 'key', id: operatorKey.id, name: 'mcp-operator', via: 'mcp' });
    const tree = (await operator('GET', `/api/runs/${structured.runId}/tree`)).body;
    expect(JSON.stringify(tree)).toContain('researcher');

    // get_run and the run's resource read the same run.
    const got = (await client.callTool({ name: 'get_run', arguments: { runId: structured.runId } })) as CallToolResult;
    expect(got.structuredContent).toMatchObject({ runId: structured.runId, status: 'completed', output: 'LEAD_SAYS_42' });
    const resource = await client.readResource({ uri: `switchboard://runs/${structured.runId}` });
    const body = JSON.parse((resource.contents[0] as { text: string }).text);
    expect(body.run).toMatchObject({ runId: structured.runId, status: 'completed' });
    expect(body.conversation).toEqual([
      expect.objectContaining({ role: 'user', text: 'What is the answer?' }),
      expect.objectContaining({ role: 'assistant', text: 'LEAD_SAYS_42' }),
    ]);
    expect(body.changes).toBeNull();

    // In the background: the id at once; get_run follows it to its end.
    const background = (await client.callTool({
      name: 'run_agent',
      arguments: { agent: 'researcher', prompt: 'Look it up', background: true },
    })) as CallToolResult;
    const backgroundId = (background.structuredContent as Json).runId as string;
    expect(textOf(background)).toContain(`get_run ${backgroundId}`);
    await waitUntil(
      async () =>
        ((await client.callTool({ name: 'get_run', arguments: { runId: backgroundId } })) as CallToolResult).structuredContent?.status === 'completed',
      'the background run to complete',
      60_000,
    );
  }, 150_000);

  it('runs run_agent as an MCP task: its task at once, followed to its answer; only its starter sees it; tasks/cancel stops the run', async () => {
    const operatorKey = await key('operator');
    const client = await connect(operatorKey.key);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'run_agent');
    expect(tool?.execution?.taskSupport).toBe('optional');

    // The SDK's own task flow: the task created, its status while it works, then the tool's answer.
    const seen: string[] = [];
    let result: CallToolResult | undefined;
    let taskId = '';
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'run_agent', arguments: { agent: 'lead', prompt: 'What is the answer, as a task?' } },
      undefined,
      { task: { ttl: 600_000 }, timeout: 120_000 },
    )) {
      seen.push(message.type);
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      if (message.type === 'result') result = message.result as CallToolResult;
      if (message.type === 'error') throw message.error;
    }
    expect(seen[0]).toBe('taskCreated');
    expect(seen[seen.length - 1]).toBe('result');
    expect(textOf(result!)).toBe('LEAD_SAYS_42');
    // The task is the run: recorded as the key's, through MCP.
    expect(result!.structuredContent).toMatchObject({ runId: taskId, agentId: 'lead', status: 'completed' });
    expect((await operator('GET', `/api/runs/${taskId}`)).body).toMatchObject({ status: 'completed', startedBy: { id: operatorKey.id, via: 'mcp' } });
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'completed' });

    // Another key's client does not see it.
    const other = await connect((await key('operator')).key);
    await expect(other.experimental.tasks.getTask(taskId)).rejects.toThrow(/Task not found/);

    // A slow run as a task, cancelled: the run is stopped.
    const stream = client.experimental.tasks.callToolStream({ name: 'run_agent', arguments: { agent: 'slow', prompt: 'Think, as a task' } }, undefined, {
      task: { ttl: 600_000 },
      timeout: 120_000,
    });
    const first = await stream.next();
    const slowTask = first.value?.type === 'taskCreated' ? first.value.task.taskId : '';
    expect(slowTask).not.toBe('');
    expect(await client.experimental.tasks.getTask(slowTask)).toMatchObject({ status: 'working' });
    await client.experimental.tasks.cancelTask(slowTask);
    expect((await operator('GET', `/api/runs/${slowTask}`)).body).toMatchObject({ status: 'stopped' });
    expect(await client.experimental.tasks.getTask(slowTask)).toMatchObject({ status: 'cancelled' });
    await stream.return(undefined);
  }, 150_000);

  it('lets a viewer key read but not start a run, and answers bad input with a tool error that says what to fix', async () => {
    const viewer = await connect((await key('viewer')).key);
    expect(textOf((await viewer.callTool({ name: 'list_agents', arguments: {} })) as CallToolResult)).toContain('researcher');
    const refused = (await viewer.callTool({ name: 'run_agent', arguments: { agent: 'lead', prompt: 'x' } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^forbidden: Mcp.run_agent needs the operate permission .*mcp-viewer has the viewer role$/);
    const runsBefore = (await operator('GET', '/api/runs')).body.runs.length;

    const client = await connect(TOKEN);
    const unknown = (await client.callTool({ name: 'run_agent', arguments: { agent: 'nobody', prompt: 'x' } })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('unknown_agent: Agent nobody does not exist; list the agents with GET /api/agents');
    const badArgument = (await client.callTool({ name: 'run_agent', arguments: { agent: 'lead' } })) as CallToolResult;
    expect(badArgument.isError).toBe(true);
    expect(textOf(badArgument)).toContain('Invalid arguments for tool run_agent: Invalid input: expected string, received undefined at prompt');
    const tooLarge = (await client.callTool({ name: 'run_agent', arguments: { agent: 'lead', prompt: 'x'.repeat(200_001) } })) as CallToolResult;
    expect(tooLarge.isError).toBe(true);
    expect(textOf(tooLarge)).toContain('Too big: expected string to have <=200000 characters at prompt');
    const missing = (await client.callTool({ name: 'get_run', arguments: { runId: 'no-such-run' } })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe('unknown_run: Run no-such-run does not exist');
    expect((await operator('GET', '/api/runs')).body.runs.length).toBe(runsBefore);
  }, 60_000);

  it('refuses a caller without a key before any MCP exchange, and a GET stream (stateless)', async () => {
    const anonymous = await fetch(`${running.app.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(anonymous.status).toBe(401);
    const stream = await fetch(`${running.app.baseUrl}/mcp`, { headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream' } });
    expect(stream.status).toBe(405);
  });
});

/**
 * The real Copilot CLI as the MCP client: a Switchboard session whose agent names Switchboard's own `/mcp`
 * as an MCP server (in the operator's mcp-config.json, with a key in its headers) calls `run_agent` from its
 * own session, and gets the other agent's answer back as the tool's result.
 */
describe('the real Copilot CLI calling /mcp as an MCP server', () => {
  const model = new ScriptedModelServer();
  const registry = makeTempDir('switchboard-mcp-self-');
  const mcpConfigFile = path.join(registry.dir, 'mcp-config.json');
  let running: RealCliApp;
  let operator: JsonHttp;

  beforeAll(async () => {
    await model.start();
    model.setScript([
      {
        name: 'the caller runs the researcher through MCP',
        systemIncludes: 'CALLER_M',
        lastIsToolResult: false,
        answer: (request) => {
          const tool = request.toolNames.find((name) => name.endsWith('run_agent') && name !== 'run_agent');
          return tool ? { toolCalls: [{ name: tool, arguments: { agent: 'researcher', prompt: 'RESEARCH over MCP' } }] } : { text: 'NO_MCP_TOOL' };
        },
      },
      { name: 'the caller reports', systemIncludes: 'CALLER_M', lastIsToolResult: true, answer: { text: 'CALLER_DONE' } },
      { name: 'the researcher answers', systemIncludes: 'RESEARCHER_M', answer: { text: 'RESEARCHER_OVER_MCP_42' } },
    ]);
    running = await startRealCliApp(model, { apiToken: TOKEN, mcpConfigFile, security: { ...loadConfig({}).security, allowHostPermissions: true } });
    operator = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${TOKEN}` });
    const created = await operator('POST', '/api/keys', { name: 'copilot-cli', role: 'operator' });
    expect(created.status).toBe(201);
    // The operator's registry names the service itself; read again when it changes, so written once the port and key are known.
    fs.writeFileSync(
      mcpConfigFile,
      JSON.stringify({
        mcpServers: {
          switchboard: { type: 'http', url: `${running.app.baseUrl}/mcp`, headers: { Authorization: `Bearer ${created.body.key}` }, tools: ['*'] },
        },
      }),
    );
    for (const agent of [
      { id: 'researcher', name: 'Researcher', system_message: { mode: 'append', content: 'RESEARCHER_M you research.' } },
      { id: 'caller', name: 'Caller', mcp_servers: ['switchboard'], system_message: { mode: 'append', content: 'CALLER_M you use tools.' } },
    ]) {
      expect((await operator('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
    registry.cleanup();
  });

  it("calls run_agent from its own session and reads the researcher's answer as the tool's result", async () => {
    const session = await operator('POST', '/api/sessions', { agentId: 'caller', permissionPolicy: { allowKinds: ['mcp'] } });
    expect(session.status).toBe(201);
    expect((await operator('POST', `/api/sessions/${session.body.sessionId}/messages`, { prompt: 'Ask the researcher' })).status).toBe(202);
    const [report] = await model.waitForRequests((r) => r.rule === 'the caller reports', 1, 90_000);
    expect(JSON.stringify(report.lastMessage)).toContain('RESEARCHER_OVER_MCP_42');
    // The run it started is the key's, a root run of the service like any other.
    const runs = (await operator('GET', '/api/runs?agentId=researcher')).body.runs as Json[];
    expect(runs).toEqual([expect.objectContaining({ status: 'completed', prompt: 'RESEARCH over MCP', output: 'RESEARCHER_OVER_MCP_42' })]);
  }, 120_000);
});
