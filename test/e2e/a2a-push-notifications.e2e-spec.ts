import type { Task, TaskPushNotificationConfig } from '@a2a-js/sdk';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { a2aClientOf, a2aMessage } from '../fixtures/a2a-client';
import { loadConfig } from '../../src/config/switchboard-config';
import { type Json, type JsonHttp, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

const TOKEN = 'a2a-push-e2e-token-0123456789';
const SECRETS_KEY = 'push-e2e-secrets-key-0123456789abcdef';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: Json;
}

/**
 * issue 43: A2A push notifications, driven by the official A2A SDK's client on the real app and the real
 * Copilot CLI with a scripted model. A client's webhook (a local HTTP server here: the client's side is the
 * outside world) is sent the task at each change of its state, with the client's token or Authorization; the
 * token is sealed in the log (SWITCHBOARD_SECRETS_KEY) and never shown back; configs are listed, read and
 * deleted; a URL the outbound guard refuses is refused before any task starts; after a restart the task's
 * notifications go on.
 */
describe('A2A push notifications, through the A2A SDK client', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  let operator: JsonHttp;
  let receiver: http.Server;
  let hookUrl: string;
  const received: Received[] = [];
  let releaseSlow: () => void = () => undefined;

  const connect = (agentId: string, transport: 'JSONRPC' | 'HTTP+JSON' = 'JSONRPC') => a2aClientOf(running.app.baseUrl, agentId, TOKEN, transport);

  /** A message answered at once (the task, not its end), asking for push notifications to the hook when `push` is given. */
  function send(text: string, options: { taskId?: string; push?: Partial<TaskPushNotificationConfig> } = {}) {
    const push = options.push && { tenant: '', id: '', taskId: '', url: hookUrl, token: '', authentication: undefined, ...options.push };
    return a2aMessage(text, { taskId: options.taskId, push, returnImmediately: true });
  }

  const asTask = (result: unknown): Task => result as Task;
  /** The notifications of one task, in the order they came: each carries the task (StreamResponse's `task`). */
  const notificationsOf = (taskId: string) => received.filter((r) => r.body.task?.id === taskId);
  const statesOf = (taskId: string) => notificationsOf(taskId).map((r) => r.body.task.status.state as string);

  beforeAll(async () => {
    receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ headers: request.headers, body: JSON.parse(body) });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    await model.start();
    const slow = new Promise((resolve) => (releaseSlow = () => resolve(undefined)));
    model.setScript([
      {
        name: 'operator runs a command',
        systemIncludes: 'OPERATOR_P',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'bash', arguments: { command: 'echo PUSH_$((40+2))', description: 'print a number' } }] },
      },
      { name: 'operator reports', systemIncludes: 'OPERATOR_P', lastIsToolResult: true, answer: { text: 'OPERATOR_P_DONE' } },
      { name: 'slow thinks', systemIncludes: 'SLOW_P', until: slow, answer: { text: 'SLOW_P_DONE' } },
    ]);
    const defaults = loadConfig({});
    running = await startRealCliApp(model, {
      apiToken: TOKEN,
      security: { ...defaults.security, allowHostPermissions: true },
      a2a: { ...defaults.a2a, secretsKey: SECRETS_KEY },
    });
    operator = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${TOKEN}` });
    for (const agent of [
      {
        id: 'operator-agent',
        name: 'Operator',
        description: 'Runs commands',
        permission_policy: { ask_kinds: ['shell'] },
        system_message: { mode: 'append', content: 'OPERATOR_P you run commands.' },
      },
      { id: 'slow', name: 'Slow', description: 'Takes its time', system_message: { mode: 'append', content: 'SLOW_P you think.' } },
    ]) {
      expect((await operator('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    releaseSlow();
    await running?.close();
    await model.stop();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('sends the task at each change of its state, with the client token; the log keeps the token sealed; a restart goes on sending', async () => {
    const card = (await operator('GET', '/a2a/operator-agent/.well-known/agent-card.json')).body;
    expect(card.capabilities.pushNotifications).toBe(true);

    const client = await connect('operator-agent');
    const task = asTask(await client.sendMessage(send('Run the command', { push: { token: 'client-token-77' } })));
    await waitUntil(() => statesOf(task.id).includes('TASK_STATE_INPUT_REQUIRED'), 'the INPUT_REQUIRED notification', 60_000);
    expect(statesOf(task.id)[0]).toBe('TASK_STATE_WORKING');
    const waiting = notificationsOf(task.id).find((r) => r.body.task.status.state === 'TASK_STATE_INPUT_REQUIRED')!;
    expect(waiting.headers['x-a2a-notification-token']).toBe('client-token-77');
    expect(waiting.headers['content-type']).toContain('application/a2a+json');
    expect(JSON.stringify(waiting.body.task.status.message)).toMatch(/asks for permission to use shell/);

    // The token is in the log only sealed; reading the config back shows no secret.
    const stream = JSON.stringify((await operator('GET', `/api/streams/a2a_push-${task.id}/events`)).body);
    expect(stream).toContain('"sealedCredentials":"v1.');
    expect(stream).not.toContain('client-token-77');
    const listed = await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 10, pageToken: '' });
    expect(listed.configs).toEqual([expect.objectContaining({ taskId: task.id, url: hookUrl, token: '' })]);

    // Restarted while the task waits: its run is interrupted (as every run a restart cuts off); resumed, its
    // notifications go on from the new process, which took the task's configs over.
    await running.restart();
    expect((await operator('GET', `/api/runs/${task.id}`)).body.status).toBe('interrupted');
    const told = notificationsOf(task.id).length;
    expect((await operator('POST', `/api/runs/${task.id}/resume`, {})).status).toBe(200);
    await waitUntil(
      () =>
        notificationsOf(task.id)
          .slice(told)
          .some((r) => r.body.task.status.state === 'TASK_STATE_INPUT_REQUIRED'),
      'the INPUT_REQUIRED notification of the resumed run',
      60_000,
    );
    const again = await connect('operator-agent');
    await again.sendMessage(send('approve: harmless', { taskId: task.id }));
    await waitUntil(() => statesOf(task.id).includes('TASK_STATE_COMPLETED'), 'the COMPLETED notification after the restart', 60_000);
    const completed = notificationsOf(task.id).find((r) => r.body.task.status.state === 'TASK_STATE_COMPLETED')!;
    expect(completed.headers['x-a2a-notification-token']).toBe('client-token-77');
    expect(JSON.stringify(completed.body.task.artifacts)).toContain('OPERATOR_P_DONE');
    expect(statesOf(task.id).filter((state) => state === 'TASK_STATE_COMPLETED')).toHaveLength(1);
  }, 180_000);

  it('creates, reads and deletes a config of a running task over HTTP+JSON; Authorization carries its credentials', async () => {
    const client = await connect('slow', 'HTTP+JSON');
    const task = asTask(await client.sendMessage(send('Think hard')));
    const created = await client.createTaskPushNotificationConfig({
      tenant: '',
      id: 'my-hook',
      taskId: task.id,
      url: hookUrl,
      token: '',
      authentication: { scheme: 'Bearer', credentials: 'hook-secret-9' },
    });
    expect(created).toMatchObject({ id: 'my-hook', taskId: task.id, url: hookUrl, token: '', authentication: { scheme: 'Bearer', credentials: '' } });
    await waitUntil(() => notificationsOf(task.id).length > 0, 'the first notification', 30_000);
    expect(notificationsOf(task.id)[0].headers.authorization).toBe('Bearer hook-secret-9');
    expect(statesOf(task.id)).toEqual(['TASK_STATE_WORKING']);

    expect(await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'my-hook' })).toMatchObject({ id: 'my-hook' });
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'my-hook' });
    expect((await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 10, pageToken: '' })).configs).toEqual([]);
    await expect(client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'my-hook' })).rejects.toThrow(
      /no push-notification config my-hook/,
    );

    // Deleted: the task's end is told to nobody.
    releaseSlow();
    await waitUntil(async () => (await operator('GET', `/api/runs/${task.id}`)).body.status === 'completed', 'the slow task to end', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(statesOf(task.id)).toEqual(['TASK_STATE_WORKING']);
  }, 120_000);

  it('refuses a URL the outbound guard refuses before any task starts, and an unknown task', async () => {
    const client = await connect('operator-agent');
    const before = (await operator('GET', '/api/runs?agentId=operator-agent')).body.runs.length as number;
    await expect(client.sendMessage(send('Run it', { push: { url: 'http://169.254.169.254/latest/meta-data' } }))).rejects.toThrow(
      /refused by the outbound guard/,
    );
    expect((await operator('GET', '/api/runs?agentId=operator-agent')).body.runs).toHaveLength(before);
    await expect(
      client.createTaskPushNotificationConfig({ tenant: '', id: '', taskId: 'no-such-task', url: hookUrl, token: '', authentication: undefined }),
    ).rejects.toThrow(/no task no-such-task/);
  }, 60_000);
});
