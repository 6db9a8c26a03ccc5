import * as net from 'node:net';
import { PassThrough } from 'node:stream';
import { createMessageConnection, ErrorCodes, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { CliSessionEvent } from './cli-protocol';
import { type CliRequestHandler, CliTransport, type CliTransportOptions, malformedSessionEvent } from './cli-transport';
import { waitUntil } from '../../test/fixtures/wait-until';
import { CopilotCliConnectionLostError, CopilotCliUnavailableError } from './copilot-cli.errors';

function frame(body: string): string {
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/**
 * A transport over in-memory pipes with a real vscode-jsonrpc peer at the other end playing the CLI;
 * `raw` writes bytes to the transport as the CLI would, bypassing the peer's framing.
 */
/** Options that record what the transport reports. */
function recordingOptions() {
  const events: CliSessionEvent[] = [];
  const unreadable: string[] = [];
  const warnings: unknown[] = [];
  const handlers = new Map<string, CliRequestHandler>();
  const options: CliTransportOptions = {
    maxMessageBytes: 1024,
    logger: { debug: () => undefined, warn: (entry: unknown) => void warnings.push(entry), error: () => undefined },
    onSessionEvent: (event) => events.push(event),
    requestHandler: (method) => handlers.get(method),
    onUnreadable: (reason) => unreadable.push(reason),
  };
  return { options, events, unreadable, warnings, handlers };
}

function transportWithPeer() {
  const fromCli = new PassThrough();
  const toCli = new PassThrough();
  const recorded = recordingOptions();
  const transport = CliTransport.overStreams(fromCli, toCli, recorded.options);
  transport.listen();
  const cli: MessageConnection = createMessageConnection(new StreamMessageReader(toCli), new StreamMessageWriter(fromCli));
  cli.listen();
  return { ...recorded, transport, cli, raw: (bytes: string) => fromCli.write(bytes) };
}

describe('CliTransport', () => {
  let peers: Array<{ transport: CliTransport; cli: MessageConnection }> = [];
  const open = () => {
    const peer = transportWithPeer();
    peers.push(peer);
    return peer;
  };
  afterEach(() => {
    peers.forEach(({ transport, cli }) => {
      transport.close();
      cli.dispose();
    });
    peers = [];
  });

  it('sends a request and resolves with the CLI answer', async () => {
    const { transport, cli } = open();
    cli.onRequest('session.create', (params: { model: string }) => ({ sessionId: 's-1', model: params.model }));
    await expect(transport.request('session.create', { model: 'm' }, 5_000)).resolves.toEqual({ sessionId: 's-1', model: 'm' });
  });

  it('a request past its deadline is CopilotCliUnavailableError naming the method', async () => {
    const { transport, cli } = open();
    cli.onRequest('session.send', () => new Promise(() => undefined));
    const late = await transport.request('session.send', {}, 10).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(CopilotCliUnavailableError);
    expect(late).not.toBeInstanceOf(CopilotCliConnectionLostError);
    expect((late as Error).message).toBe('The Copilot CLI did not answer session.send within 10 ms');
  });

  it('a request whose connection is closed before the answer is CopilotCliConnectionLostError', async () => {
    const { transport, cli } = open();
    let asked = false;
    cli.onRequest('session.send', () => {
      asked = true;
      return new Promise(() => undefined);
    });
    const pending = transport.request('session.send', {}, 5_000).catch((e: unknown) => e);
    await waitUntil(() => asked, 'the CLI to receive session.send');
    transport.close();
    const lost = await pending;
    expect(lost).toBeInstanceOf(CopilotCliConnectionLostError);
    expect((lost as Error).message).toBe('The Copilot CLI connection dropped before it answered session.send');
    // After close nothing can be sent: that is lost too, not a raw vscode-jsonrpc error.
    await expect(transport.request('session.send', {}, 5_000)).rejects.toBeInstanceOf(CopilotCliConnectionLostError);
  });

  it('passes on the CLI refusing a request as it came', async () => {
    const { transport } = open();
    await expect(transport.request('session.bogus', {}, 5_000)).rejects.toMatchObject({ code: ErrorCodes.MethodNotFound });
  });

  it('delivers well-formed session.event notifications in order and drops malformed ones with a warning', async () => {
    const { cli, events, warnings } = open();
    await cli.sendNotification('session.event', { sessionId: 's', event: { type: 'one', data: {} } });
    await cli.sendNotification('session.event', { sessionId: '', event: { type: 'bad', data: {} } });
    await cli.sendNotification('session.event', { sessionId: 's', event: { type: 'two', data: {} } });
    await waitUntil(() => events.length === 2, 'two session events');
    expect(events.map((e) => e.event.type)).toEqual(['one', 'two']);
    expect(warnings).toEqual([expect.objectContaining({ problem: 'sessionId is not a non-empty string' })]);
  });

  it("answers the CLI's requests from the handler for the method, and refuses unknown methods and params that are not an object", async () => {
    const { cli, handlers } = open();
    handlers.set('tool.call', (params) => Promise.resolve({ textResultForLlm: `ran ${String(params.toolName)}` }));
    await expect(cli.sendRequest('tool.call', { toolName: 'x' })).resolves.toEqual({ textResultForLlm: 'ran x' });
    await expect(cli.sendRequest('permission.request', {})).rejects.toMatchObject({
      code: ErrorCodes.MethodNotFound,
      message: 'Unhandled method permission.request',
    });
    await expect(cli.sendRequest('tool.call', [1, 2])).rejects.toMatchObject({
      code: ErrorCodes.InvalidParams,
      message: 'tool.call needs an object of params',
    });
  });

  it('skips a frame whose body is not JSON and reads the next one', async () => {
    const { events, unreadable, raw } = open();
    raw(frame('{not json'));
    raw(frame(JSON.stringify({ jsonrpc: '2.0', method: 'session.event', params: { sessionId: 's', event: { type: 'after', data: {} } } })));
    await waitUntil(() => events.length === 1, 'the event after the skipped frame');
    expect(events[0].event.type).toBe('after');
    expect(unreadable).toEqual([]);
  });

  it('reports broken framing (a header without Content-Length) as unreadable, once', async () => {
    const { unreadable, raw } = open();
    raw('Content-Type: x\r\n\r\n{}');
    raw('stray line\r\n\r\n');
    await waitUntil(() => unreadable.length > 0, 'the stream reported unreadable');
    expect(unreadable).toEqual([expect.stringMatching(/^Header must provide a Content-Length/)]);
  });

  it('reports a frame over maxMessageBytes as unreadable at its header', async () => {
    const { unreadable, events, raw } = open();
    raw(`Content-Length: 5000\r\n\r\n`);
    await waitUntil(() => unreadable.length > 0, 'the stream reported unreadable');
    expect(unreadable).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it('says nothing of unreadable input once closed', async () => {
    const { transport, unreadable, raw } = open();
    transport.close();
    raw('Content-Length: 5000\r\n\r\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(unreadable).toEqual([]);
  });

  describe('over TCP', () => {
    let server: net.Server | undefined;
    afterEach(() => server?.close());

    it('a port nobody listens on is CopilotCliUnavailableError naming the address', async () => {
      server = net.createServer();
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as net.AddressInfo;
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = undefined;
      const refused = await CliTransport.connect(`127.0.0.1:${port}`, recordingOptions().options, () => undefined).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(CopilotCliUnavailableError);
      expect((refused as Error).message).toMatch(new RegExp(`^Cannot reach the Copilot CLI at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
    });

    it('speaks to a CLI listening on a port, and tells onClose with the transport when the CLI hangs up', async () => {
      const accepted: net.Socket[] = [];
      server = net.createServer((socket) => {
        accepted.push(socket);
        const cli = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket));
        cli.onRequest('ping', () => ({ protocolVersion: 2 }));
        cli.listen();
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as net.AddressInfo;
      const closed: CliTransport[] = [];
      const transport = await CliTransport.connect(`127.0.0.1:${port}`, recordingOptions().options, (t) => closed.push(t));
      transport.listen();
      await expect(transport.send('ping', {})).resolves.toEqual({ protocolVersion: 2 });
      expect(closed).toEqual([]);
      accepted[0].destroy();
      await waitUntil(() => closed.length === 1, 'onClose after the CLI hung up');
      expect(closed[0]).toBe(transport);
      transport.close();
    });
  });
});

describe('malformedSessionEvent', () => {
  it('accepts the shapes the CLI sends', () => {
    expect(malformedSessionEvent({ sessionId: 's', event: { type: 'session.idle', data: {} } })).toBeUndefined();
    expect(malformedSessionEvent({ sessionId: 's', event: { type: 'x', agentId: 'task-1', data: { a: 1 } } })).toBeUndefined();
    expect(malformedSessionEvent({ sessionId: 's', event: { type: 'x' } })).toBeUndefined();
  });

  it.each([
    [null, 'params is not an object'],
    [[1, 2], 'sessionId is not a non-empty string'],
    [{ sessionId: 42, event: { type: 'x' } }, 'sessionId is not a non-empty string'],
    [{ sessionId: 's', event: 'x' }, 'event is not an object'],
    [{ sessionId: 's', event: { type: 7 } }, 'event.type is not a non-empty string'],
    [{ sessionId: 's', event: { type: 'x', data: [1] } }, 'event.data is not an object'],
    [{ sessionId: 's', event: { type: 'x', data: null } }, 'event.data is not an object'],
  ])('names what is wrong with %p', (params, problem) => {
    expect(malformedSessionEvent(params)).toBe(problem);
  });
});
