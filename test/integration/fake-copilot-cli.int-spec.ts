import * as net from 'node:net';
import { createMessageConnection, ErrorCodes, MessageConnection, ResponseError, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import type { CliSessionEvent } from '../../src/copilot-cli/cli-protocol';
import { FakeCopilotCli, type FakeCopilotCliOptions } from '../fixtures/fake-copilot-cli';
import { waitUntil } from '../fixtures/wait-until';

/**
 * The fake is checked with a bare vscode-jsonrpc client rather than CopilotCliConnection, so a bug in
 * either cannot hide the other.
 */
describe('FakeCopilotCli', () => {
  let fake: FakeCopilotCli;
  let client: MessageConnection;
  let socket: net.Socket;
  let events: CliSessionEvent[];

  async function startWith(options: FakeCopilotCliOptions = {}): Promise<void> {
    fake = await new FakeCopilotCli(options).start();
    const [host, port] = fake.url.split(':');
    socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect({ host, port: Number(port) }, () => resolve(s)).once('error', reject);
    });
    // vscode-jsonrpc writes header and body separately; with Nagle each request waits ~40 ms for a delayed ACK.
    socket.setNoDelay(true);
    client = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
    events = [];
    client.onNotification('session.event', (params: CliSessionEvent) => events.push(params));
    client.listen();
  }

  afterEach(async () => {
    client?.dispose();
    socket?.destroy();
    await fake?.stop();
  });

  it('protocol 3 answers connect and records it', async () => {
    await startWith();
    expect(fake.url).toMatch(/^127\.0\.0\.1:\d+$/);
    await expect(client.sendRequest('connect', { supportedTaskKinds: ['agent'] })).resolves.toEqual({
      ok: true,
      protocolVersion: 3,
      version: 'fake',
    });
    expect(fake.received).toEqual([{ method: 'connect', params: { supportedTaskKinds: ['agent'] } }]);
    expect(fake.connectionCount).toBe(1);
  });

  it('protocol 2 answers connect MethodNotFound, then reports itself from ping', async () => {
    await startWith({ protocolVersion: 2 });
    const refused = await client.sendRequest('connect', {}).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ResponseError);
    expect(refused).toMatchObject({ code: ErrorCodes.MethodNotFound, message: 'Unhandled method connect' });
    await expect(client.sendRequest('ping', { message: 'hi' })).resolves.toEqual({ message: 'pong', protocolVersion: 2 });
  });

  it('any other protocol number is reported as is by connect', async () => {
    await startWith({ protocolVersion: 7 });
    await expect(client.sendRequest('connect', {})).resolves.toMatchObject({ protocolVersion: 7 });
  });

  it('records create and send, runs onSend after answering, and resumes only known sessions', async () => {
    await startWith({
      onSend: (sessionId, prompt, cli) => cli.emitEvent(sessionId, { type: 'session.idle', data: { prompt } }),
    });
    const waiting = fake.waitFor<{ prompt: string }>('session.send', (p) => p.prompt === 'go');
    const created = await client.sendRequest('session.create', { sessionId: 's-1', model: 'm' });
    expect(created).toEqual({ sessionId: 's-1', workspacePath: '/fake' });
    const sent = await client.sendRequest<{ messageId: string }>('session.send', { sessionId: 's-1', prompt: 'go' });
    expect(typeof sent.messageId).toBe('string');
    await expect(waiting).resolves.toEqual({ sessionId: 's-1', prompt: 'go' });
    // Notifications carry no answer, so the client side can only be polled for them.
    await waitUntil(() => events.length === 1, 'the session.idle notification');
    expect(events[0]).toMatchObject({ sessionId: 's-1', event: { type: 'session.idle', data: { prompt: 'go' } } });
    expect(fake.hookErrors).toEqual([]);

    // v2 clients send no id: the fake invents one, and already-received requests satisfy waitFor.
    const v2 = await client.sendRequest<{ sessionId: string }>('session.create', { model: 'm' });
    expect(v2.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await expect(fake.waitFor('session.create', (p) => p.sessionId === 's-1')).resolves.toMatchObject({ model: 'm' });

    await expect(client.sendRequest('session.resume', { sessionId: 's-1' })).resolves.toEqual({
      sessionId: 's-1',
      workspacePath: '/fake',
    });
    await expect(client.sendRequest('session.resume', { sessionId: 'nope' })).rejects.toMatchObject({
      code: ErrorCodes.InternalError,
      message: 'Session not found: nope',
    });
    for (const method of ['session.destroy', 'session.abort', 'session.permissions.handlePendingPermissionRequest']) {
      await expect(client.sendRequest(method, { sessionId: 's-1' })).resolves.toEqual({ success: true });
    }
    await expect(client.sendRequest('session.bogus', {})).rejects.toMatchObject({ code: ErrorCodes.MethodNotFound });
    expect(fake.received.map((r) => r.method)).toContain('session.bogus');
  });

  it('emitEvent reaches the client with id and timestamp filled in', async () => {
    await startWith();
    const sent = await fake.emitEvent('s-1', { type: 'subagent.started', data: { agentName: 'a' }, agentId: 't-1' });
    await waitUntil(() => events.length === 1, 'the emitted notification');
    expect(events[0]).toEqual(sent);
    expect(events[0].event).toMatchObject({ type: 'subagent.started', agentId: 't-1', id: expect.any(String) });
    expect(Number.isNaN(Date.parse(events[0].event.timestamp!))).toBe(false);
  });

  it('request() resolves with the client answer and rejects with its error', async () => {
    await startWith({ protocolVersion: 2 });
    client.onRequest('tool.call', (params: { toolName: string }) => ({ textResultForLlm: `ran ${params.toolName}` }));
    await expect(fake.request('tool.call', { toolName: 'x' })).resolves.toEqual({ textResultForLlm: 'ran x' });
    await expect(fake.request('permission.request', {})).rejects.toMatchObject({ code: ErrorCodes.MethodNotFound });
  });

  it('sendRaw delivers a hand-framed message between ordinary frames', async () => {
    await startWith();
    const body = JSON.stringify({ jsonrpc: '2.0', method: 'session.event', params: { sessionId: 'raw', event: { type: 't', data: {} } } });
    await Promise.all([
      fake.emitEvent('a', { type: 't', data: {} }),
      fake.sendRaw(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
      fake.emitEvent('b', { type: 't', data: {} }),
    ]);
    await waitUntil(() => events.length === 3, 'the three notifications');
    expect(events.map((e) => e.sessionId)).toEqual(['a', 'raw', 'b']);
  });

  it('dropConnections closes the client abruptly and fails requests in flight; the server keeps listening', async () => {
    await startWith();
    let closed = false;
    client.onClose(() => (closed = true));
    let asked = false;
    client.onRequest('hooks.invoke', () => {
      asked = true;
      return new Promise(() => undefined); // the answer never comes: the CLI dies first
    });
    const outcome = fake.request('hooks.invoke', {}).catch((error: unknown) => error);
    await waitUntil(() => asked, 'the hooks.invoke request at the client');
    await fake.dropConnections();
    await expect(outcome).resolves.toBeInstanceOf(ResponseError);
    await waitUntil(() => closed, 'the client connection to close');
    expect(fake.connectionCount).toBe(0);
    await expect(fake.emitEvent('s', { type: 't', data: {} })).rejects.toThrow(/no client/);
    await expect(fake.waitFor('connect', undefined, 20)).rejects.toThrow(/no matching connect/);
  });
});
