import { Role, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { a2aClientOf, a2aMessage } from '../fixtures/a2a-client';
import { loadConfig } from '../../src/config/switchboard-config';
import { type Json, type JsonHttp, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

const TOKEN = 'a2a-e2e-token-0123456789';

/**
 * issue 43: every library agent is an A2A agent, driven here by the official A2A SDK's client (nobody here
 * wrote it) over both of its transports, on the real app and the real Copilot CLI with a scripted model.
 * A lead that delegates to a researcher answers SendMessage with its output as a completed task; a second
 * message in the same context carries the first exchange; a stream tells each step; a run waiting on an
 * approval is INPUT_REQUIRED and the next message answers it; cancel stops the run; a viewer key reads but
 * cannot start a task; bad input is A2A's error.
 */
describe('the A2A server at /a2a/<agentId>, through the A2A SDK client', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  let operator: JsonHttp;
  let releaseSlow: () => void = () => undefined;

  async function key(role: string): Promise<{ key: string; id: string }> {
    const created = await operator('POST', '/api/keys', { name: `a2a-${role}`, role });
    expect(created.status).toBe(201);
    return { key: created.body.key as string, id: created.body.apiKey.id as string };
  }

  /** A client of `agentId` with `bearer`'s identity, preferring `transport`. */
  const connect = (agentId: string, bearer: string, transport: 'JSONRPC' | 'HTTP+JSON' = 'JSONRPC') =>
    a2aClientOf(running.app.baseUrl, agentId, bearer, transport);
  const send = (text: string, options: { contextId?: string; taskId?: string; returnImmediately?: boolean } = {}) => a2aMessage(text, options);

  const asTask = (result: unknown): Task => {
    expect(result).toHaveProperty('status');
    return result as Task;
  };
  const textOf = (task: Task) => (task.artifacts[0]?.parts[0]?.content as { value: string } | undefined)?.value;
  const statusText = (task: Task) => (task.status?.message?.parts[0]?.content as { value: string } | undefined)?.value ?? '';

  beforeAll(async () => {
    await model.start();
    const slow = new Promise((resolve) => (releaseSlow = () => resolve(undefined)));
    model.setScript([
      {
        name: 'lead delegates',
        systemIncludes: 'LEAD_A',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'researcher', prompt: 'RESEARCH the topic', background: false } }] },
      },
      { name: 'lead answers', systemIncludes: 'LEAD_A', lastIsToolResult: true, answer: { text: 'LEAD_SAYS_42' } },
      { name: 'researcher answers', systemIncludes: 'RESEARCHER_A', answer: { text: 'RESEARCHER_FOUND_42' } },
      {
        name: 'operator runs a command',
        systemIncludes: 'OPERATOR_A',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'bash', arguments: { command: 'echo A2A_$((40+2))', description: 'print a number' } }] },
      },
      { name: 'operator reports', systemIncludes: 'OPERATOR_A', lastIsToolResult: true, answer: { text: 'OPERATOR_DONE' } },
      { name: 'slow thinks', systemIncludes: 'SLOW_A', until: slow, answer: { text: 'SLOW_DONE' } },
    ]);
    // Host permissions on: the operator agent's shell requests wait for a person.
    running = await startRealCliApp(model, { apiToken: TOKEN, security: { ...loadConfig({}).security, allowHostPermissions: true } });
    operator = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${TOKEN}` });
    for (const agent of [
      { id: 'researcher', name: 'Researcher', description: 'Finds things out', system_message: { mode: 'append', content: 'RESEARCHER_A you research.' } },
      {
        id: 'lead',
        name: 'Lead',
        description: 'Leads the research',
        sub_agents: ['researcher'],
        system_message: { mode: 'append', content: 'LEAD_A you delegate.' },
      },
      {
        id: 'operator-agent',
        name: 'Operator',
        description: 'Runs commands',
        permission_policy: { ask_kinds: ['shell'] },
        system_message: { mode: 'append', content: 'OPERATOR_A you run commands.' },
      },
      { id: 'slow', name: 'Slow', description: 'Takes its time', system_message: { mode: 'append', content: 'SLOW_A you think.' } },
    ]) {
      expect((await operator('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    releaseSlow();
    await running?.close();
    await model.stop();
  });

  it("serves each agent's card with its team as skills, to a caller with a key", async () => {
    const anonymous = jsonHttp(() => running.app.baseUrl);
    expect((await anonymous('GET', '/a2a/lead/.well-known/agent-card.json')).status).toBe(401);
    const unknown = await operator('GET', '/a2a/nobody/.well-known/agent-card.json');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('No agent nobody');

    const card = (await operator('GET', '/a2a/lead/.well-known/agent-card.json')).body;
    expect(card).toMatchObject({ name: 'Lead', description: 'Leads the research', capabilities: { streaming: true } });
    expect(card.supportedInterfaces.map((i: Json) => [i.protocolBinding, i.url])).toEqual([
      ['JSONRPC', `${running.app.baseUrl}/a2a/lead`],
      ['HTTP+JSON', `${running.app.baseUrl}/a2a/lead`],
    ]);
    expect(card.skills.map((s: Json) => s.id)).toEqual(['lead', 'lead/researcher']);
    expect(Object.keys(card.securitySchemes)).toEqual(['bearer']);
  });

  it('answers SendMessage with the completed task of a delegating team, and a second message continues the context', async () => {
    const operatorKey = await key('operator');
    const client = await connect('lead', operatorKey.key);
    const first = asTask(await client.sendMessage(send('What is the answer?')));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(first)).toBe('LEAD_SAYS_42');
    expect(first.history.map((m) => m.role)).toEqual([Role.ROLE_USER, Role.ROLE_AGENT]);
    expect(first.metadata?.switchboard).toMatchObject({ runId: first.id, agentId: 'lead', runUrl: `${running.app.baseUrl}/runs/${first.id}` });

    // The task is the run: recorded as the key's, through A2A, with the researcher under it.
    const run = (await operator('GET', `/api/runs/${first.id}`)).body;
    expect(run).toMatchObject({ status: 'completed', agentId: 'lead', a2aContextId: first.contextId, output: 'LEAD_SAYS_42' });
    const events = (await operator('GET', `/api/streams/run-${first.id}/events`)).body.events as Json[];
    expect(events.find((e) => e.type === 'run.started')?.metadata.by).toEqual({ kind: 'key', id: operatorKey.id, name: 'a2a-operator', via: 'a2a' });
    expect(JSON.stringify((await operator('GET', `/api/runs/${first.id}/tree`)).body)).toContain('researcher');

    // The same context: a new task whose first prompt carries the first exchange.
    const second = asTask(await client.sendMessage(send('And the question behind it?', { contextId: first.contextId })));
    expect(second.id).not.toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
    const secondPrompt = model.requests.find((r) => r.allText.includes('And the question behind it?') && r.systemText.includes('LEAD_A'));
    expect(secondPrompt?.allText).toContain('What is the answer?');
    expect(secondPrompt?.allText).toContain('LEAD_SAYS_42');

    const listed = await client.listTasks({
      tenant: '',
      contextId: first.contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      statusTimestampAfter: undefined,
    });
    expect(listed.tasks.map((t) => t.id)).toEqual([second.id, first.id]);
    expect(listed.totalSize).toBe(2);
    const got = await client.getTask({ tenant: '', id: first.id, historyLength: 1 });
    expect(got.history.map((m) => m.role)).toEqual([Role.ROLE_AGENT]);
  }, 150_000);

  it('streams each step over HTTP+JSON: the task, the steps as WORKING, the output artifact, then COMPLETED', async () => {
    const client = await connect('lead', TOKEN, 'HTTP+JSON');
    const seen: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(send('Stream it'))) seen.push(event);
    const kinds = seen.map((e) => e.payload?.$case);
    expect(kinds[0]).toBe('task');
    const steps = seen.flatMap((e) =>
      e.payload?.$case === 'statusUpdate' && e.payload.value.status?.state === TaskState.TASK_STATE_WORKING
        ? [(e.payload.value.status.message?.parts[0]?.content as { value: string }).value]
        : [],
    );
    expect(steps).toContain('tool agent_run');
    expect(steps.some((s) => /^run \w+ of Researcher started$/.test(s))).toBe(true);
    const artifact = seen.find((e) => e.payload?.$case === 'artifactUpdate');
    expect(artifact?.payload?.$case === 'artifactUpdate' && (artifact.payload.value.artifact?.parts[0]?.content as { value: string }).value).toBe(
      'LEAD_SAYS_42',
    );
    const last = seen[seen.length - 1];
    expect(last.payload?.$case === 'statusUpdate' && last.payload.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  }, 120_000);

  it('is INPUT_REQUIRED while a run waits on an approval, and the next message answers it', async () => {
    const client = await connect('operator-agent', TOKEN);
    const waiting = asTask(await client.sendMessage(send('Run the command')));
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(waiting)).toMatch(/asks for permission to use shell.*A2A_\$\(\(40\+2\)\).*Answer approve or deny/s);
    expect(waiting.metadata?.switchboard.approvalId).toEqual(expect.any(String));

    // Neither yes nor no: A2A's invalid-params error saying how to answer.
    await expect(client.sendMessage(send('maybe later', { taskId: waiting.id }))).rejects.toThrow(/answer approve or deny/);
    const done = asTask(await client.sendMessage(send('approve: harmless', { taskId: waiting.id, contextId: waiting.contextId })));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(done)).toBe('OPERATOR_DONE');
    expect(model.requests.some((r) => r.systemText.includes('OPERATOR_A') && r.allText.includes('A2A_42'))).toBe(true);
    const approvals = (await operator('GET', `/api/approvals?rootRunId=${waiting.id}`)).body.approvals as Json[];
    expect(approvals).toEqual([
      expect.objectContaining({ id: waiting.metadata?.switchboard.approvalId, status: 'decided', decision: 'approve', reason: 'approve: harmless' }),
    ]);

    // An ended task takes no more messages: the context goes on with a new task.
    await expect(client.sendMessage(send('again', { taskId: waiting.id }))).rejects.toThrow(/has ended \(completed\)/);
  }, 120_000);

  it('cancels a working task: the run and its tree stop', async () => {
    const client = await connect('slow', TOKEN);
    const started = asTask(await client.sendMessage(send('Think hard', { returnImmediately: true })));
    expect(started.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    await waitUntil(() => model.requests.some((r) => r.systemText.includes('SLOW_A')), 'the slow agent to ask its model', 60_000);
    const cancelled = await client.cancelTask({ tenant: '', id: started.id, metadata: { reason: 'no longer needed' } });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await operator('GET', `/api/runs/${started.id}`)).body).toMatchObject({ status: 'stopped' });
    await expect(client.cancelTask({ tenant: '', id: started.id, metadata: undefined })).rejects.toThrow(/has ended \(canceled\)/);
  }, 120_000);

  it("lets a viewer key read tasks but not start one; refuses bad input with A2A's errors", async () => {
    const viewer = await key('viewer');
    const client = await connect('lead', viewer.key);
    await expect(client.sendMessage(send('Do something'))).rejects.toThrow(/403|forbidden|operate/i);
    const listed = await client.listTasks({
      tenant: '',
      contextId: '',
      status: TaskState.TASK_STATE_COMPLETED,
      pageToken: '',
      statusTimestampAfter: undefined,
      pageSize: 1,
    });
    expect(listed.tasks).toHaveLength(1);
    expect(listed.nextPageToken).not.toBe('');
    const next = await client.listTasks({
      tenant: '',
      contextId: '',
      status: TaskState.TASK_STATE_COMPLETED,
      pageToken: listed.nextPageToken,
      statusTimestampAfter: undefined,
      pageSize: 1,
    });
    expect(next.tasks.map((t) => t.id)).not.toContain(listed.tasks[0].id);
    await expect(
      client.listTasks({ tenant: '', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: 'nonsense', statusTimestampAfter: undefined }),
    ).rejects.toThrow(/pageToken is not one this server gave out/);

    const operatorClient = await connect('lead', TOKEN);
    await expect(operatorClient.getTask({ tenant: '', id: 'no-such-task' })).rejects.toThrow(/no task no-such-task/);
    await expect(operatorClient.sendMessage(send('   '))).rejects.toThrow(/no text/);
    await expect(operatorClient.sendMessage(send('x'.repeat(200_001)))).rejects.toThrow(/200001 characters/);
    await expect(operatorClient.sendMessage(send('hi', { contextId: 'bad context!' }))).rejects.toThrow(/contextId must be/);
    const withPush = send('call me back');
    withPush.configuration!.taskPushNotificationConfig = {
      tenant: '',
      id: 'p1',
      taskId: '',
      url: 'http://127.0.0.1:9/hook',
      token: 't',
      authentication: undefined,
    };
    await expect(operatorClient.sendMessage(withPush)).rejects.toThrow(/push notifications are off on this server/);

    // A JSON-RPC method A2A does not have is the protocol's own error, not a 500.
    const raw = await fetch(`${running.app.baseUrl}/a2a/lead`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'NoSuchMethod', params: {} }),
    });
    expect(raw.status).toBe(200);
    expect(((await raw.json()) as Json).error.code).toBe(-32601);
  }, 120_000);
});
