import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../config';
import { type HostResolver, OutboundUrlGuard } from '../outbound';
import type { ToolInvocation } from '../sessions';
import { SignedWebhook } from './signed-webhook';
import { parseToolAnswer, SIGNATURE_HEADER, signBody, WebhookToolHandler } from './webhook-tool-handler';

interface ReceivedRequest {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 (random port) that records every request and answers by path. */
class WebhookServer {
  readonly received: ReceivedRequest[] = [];
  private readonly server: Server;
  private baseUrl = '';

  constructor(private readonly routes: Record<string, Route>) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ method: req.method, url: req.url, headers: req.headers, rawBody: Buffer.concat(chunks) });
        const route = this.routes[req.url ?? ''];
        if (route) route(req, res);
        else res.writeHead(404).end('no such route');
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((e) => (e ? reject(e) : resolve())));
  }
}

const json =
  (status: number, body: unknown): Route =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
const text =
  (status: number, body: string): Route =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
  };

const invocation = (overrides: Partial<ToolInvocation> = {}): ToolInvocation => ({
  sessionId: 'session-1',
  childSessionId: 'child-7',
  agentName: 'reviewer',
  toolCallId: 'call-42',
  toolName: 'save_result',
  arguments: { content: 'hello', n: 3 },
  ...overrides,
});

/** A port on 127.0.0.1 with nothing listening: bind a server to a random port, then close it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('WebhookToolHandler (real HTTP server)', () => {
  let server: WebhookServer;

  beforeAll(async () => {
    server = new WebhookServer({
      '/string': json(200, { result: 'x' }),
      '/object': json(200, { result: { a: 1 } }),
      '/structured': json(200, { textResultForLlm: 'saved 3 rows', resultType: 'success' }),
      '/structured-failure': json(200, { textResultForLlm: 'quota exceeded', resultType: 'failure', error: 'quota' }),
      '/created': json(201, { result: 'made' }),
      '/500': text(500, 'database exploded'),
      '/404-json': json(404, { result: 'should not be used' }),
      '/malformed': text(200, '{"result": "unterminated'),
      '/hang': () => {
        /* never answers */
      },
      '/headers-then-stall': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"result": ');
        /* never finishes the body */
      },
    });
    await server.start();
  });

  afterAll(async () => {
    await server.stop();
  });

  beforeEach(() => {
    server.received.length = 0;
  });

  const handler = (env: NodeJS.ProcessEnv = {}, resolve?: HostResolver) => {
    const config = loadConfig(env);
    return new WebhookToolHandler(new SignedWebhook(config, new OutboundUrlGuard({ allow: config.security.outboundAllow, resolve })));
  };

  describe('request', () => {
    it('POSTs exactly {sessionId, childSessionId, agentName, toolCallId, toolName, arguments} as JSON', async () => {
      await handler().call(server.url('/string'), invocation());

      expect(server.received).toHaveLength(1);
      const [request] = server.received;
      expect(request.method).toBe('POST');
      expect(request.url).toBe('/string');
      expect(request.headers['content-type']).toBe('application/json');
      const body = JSON.parse(request.rawBody.toString('utf8'));
      expect(Object.keys(body).sort()).toEqual(['agentName', 'arguments', 'childSessionId', 'sessionId', 'toolCallId', 'toolName']);
      expect(body).toStrictEqual(invocation());
    });

    it('sends null for a missing child and agent, and {} for missing arguments', async () => {
      await handler().call(server.url('/string'), invocation({ childSessionId: undefined, agentName: undefined, arguments: undefined }));

      expect(JSON.parse(server.received[0].rawBody.toString('utf8'))).toStrictEqual({
        ...invocation(),
        childSessionId: null,
        agentName: null,
        arguments: {},
      });
    });

    it('signs the raw body with HMAC-SHA256 of the configured secret', async () => {
      const secret = 'webhook-secret-for-tests';
      await handler({ SWITCHBOARD_WEBHOOK_SECRET: secret }).call(server.url('/string'), invocation());

      const [request] = server.received;
      const expected = `sha256=${createHmac('sha256', secret).update(request.rawBody).digest('hex')}`;
      expect(request.headers[SIGNATURE_HEADER]).toBe(expected);
      expect(request.headers['x-switchboard-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    });

    it('the signature changes with the body and with the secret', async () => {
      await handler({ SWITCHBOARD_WEBHOOK_SECRET: 'secret-one' }).call(server.url('/string'), invocation());
      await handler({ SWITCHBOARD_WEBHOOK_SECRET: 'secret-one' }).call(server.url('/string'), invocation({ toolCallId: 'call-43' }));
      await handler({ SWITCHBOARD_WEBHOOK_SECRET: 'secret-two' }).call(server.url('/string'), invocation());

      const [a, b, c] = server.received.map((r) => r.headers['x-switchboard-signature']);
      expect(a).not.toBe(b);
      expect(a).not.toBe(c);
      // the independently computed value matches for each
      for (const [i, secret] of (['secret-one', 'secret-one', 'secret-two'] as const).entries()) {
        const raw = server.received[i].rawBody;
        expect(server.received[i].headers['x-switchboard-signature']).toBe(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
      }
    });

    it('sends no signature header without a secret (unset or empty)', async () => {
      await handler().call(server.url('/string'), invocation());
      await handler({ SWITCHBOARD_WEBHOOK_SECRET: '' }).call(server.url('/string'), invocation());

      expect(server.received).toHaveLength(2);
      for (const request of server.received) expect(request.headers).not.toHaveProperty('x-switchboard-signature');
    });

    it('signBody agrees with an independent HMAC', () => {
      const body = '{"k":"v","ü":1}';
      expect(signBody('s3cret', body)).toBe(`sha256=${createHmac('sha256', 's3cret').update(Buffer.from(body, 'utf8')).digest('hex')}`);
    });
  });

  describe('answers', () => {
    it('{result: "x"} becomes the text "x"', async () => {
      expect(await handler().call(server.url('/string'), invocation())).toEqual({ textResultForLlm: 'x', resultType: 'success' });
    });

    it('{result: {a: 1}} becomes its JSON text', async () => {
      expect(await handler().call(server.url('/object'), invocation())).toEqual({ textResultForLlm: '{"a":1}', resultType: 'success' });
    });

    it('{textResultForLlm, resultType} is passed through', async () => {
      expect(await handler().call(server.url('/structured'), invocation())).toEqual({
        textResultForLlm: 'saved 3 rows',
        resultType: 'success',
      });
      expect(await handler().call(server.url('/structured-failure'), invocation())).toEqual({
        textResultForLlm: 'quota exceeded',
        resultType: 'failure',
        error: 'quota',
      });
    });

    it('any 2xx status is accepted', async () => {
      expect(await handler().call(server.url('/created'), invocation())).toEqual({ textResultForLlm: 'made', resultType: 'success' });
    });
  });

  describe('failures', () => {
    it('HTTP 500 becomes a failure result naming the status, with the body in the error', async () => {
      const result = await handler().call(server.url('/500'), invocation());
      expect(result).toEqual({
        textResultForLlm: 'Tool save_result failed: its webhook answered HTTP 500.',
        resultType: 'failure',
        error: 'Tool save_result failed: its webhook answered HTTP 500. database exploded',
      });
    });

    it('a non-2xx answer is a failure even when its body looks like a result', async () => {
      const result = await handler().call(server.url('/404-json'), invocation());
      expect(result.resultType).toBe('failure');
      expect(result.textResultForLlm).toBe('Tool save_result failed: its webhook answered HTTP 404.');
    });

    it('a malformed JSON body becomes a failure that says what shape was expected', async () => {
      const result = await handler().call(server.url('/malformed'), invocation());
      const expectedText =
        'Tool save_result failed: its webhook answered with a body that is neither {"result": ...} nor {"textResultForLlm": ..., "resultType": ...}.';
      expect(result).toEqual({
        textResultForLlm: expectedText,
        resultType: 'failure',
        error: `${expectedText} {"result": "unterminated`,
      });
    });

    it('a server that never answers gives a failure after the configured timeout, without hanging', async () => {
      const started = Date.now();
      const result = await handler({ SWITCHBOARD_WEBHOOK_TIMEOUT_MS: '200' }).call(server.url('/hang'), invocation());
      const elapsed = Date.now() - started;

      expect(result).toEqual({
        textResultForLlm: 'Tool save_result failed: its webhook did not answer within 200 ms.',
        resultType: 'failure',
        error: 'Tool save_result failed: its webhook did not answer within 200 ms.',
      });
      expect(server.received).toHaveLength(1);
      expect(elapsed).toBeGreaterThanOrEqual(150);
      expect(elapsed).toBeLessThan(2000);
    });

    it('a server that sends headers but never the body still gives a failure within the timeout', async () => {
      const started = Date.now();
      const result = await handler({ SWITCHBOARD_WEBHOOK_TIMEOUT_MS: '200' }).call(server.url('/headers-then-stall'), invocation());
      const elapsed = Date.now() - started;

      expect(result.resultType).toBe('failure');
      expect(result.textResultForLlm).toMatch(/^Tool save_result failed: /);
      expect(elapsed).toBeLessThan(2000);
    });

    it('a refused connection gives a failure saying the webhook could not be reached', async () => {
      const port = await closedPort();
      const result = await handler().call(`http://127.0.0.1:${port}/tool`, invocation());

      expect(result.resultType).toBe('failure');
      expect(result.textResultForLlm).toBe('Tool save_result failed: its webhook could not be reached (ECONNREFUSED).');
      expect(result.error).toBe(result.textResultForLlm);
    });
  });

  describe('the outbound guard', () => {
    const refusedText = (reason: string) => `Tool save_result failed: its webhook URL is refused by the outbound guard (${reason}).`;

    it.each([
      ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', '169.254.169.254 is a cloud metadata address'],
      ['http://[::ffff:169.254.169.254]/', '169.254.169.254 is a cloud metadata address'],
      ['http://metadata.google.internal/computeMetadata/v1/', 'metadata.google.internal is a cloud metadata host'],
    ])('refuses %s before any connection, as a failure result whose error carries the reason', async (url, reason) => {
      const result = await handler().call(url, invocation());
      expect(result).toEqual({ textResultForLlm: refusedText(reason), resultType: 'failure', error: refusedText(reason) });
    });

    it('narrows to SWITCHBOARD_OUTBOUND_ALLOW: the loopback test server is refused, nothing reaches it', async () => {
      const result = await handler({ SWITCHBOARD_OUTBOUND_ALLOW: '10.0.0.0/8' }).call(server.url('/string'), invocation());
      expect(result.textResultForLlm).toBe(refusedText('127.0.0.1 is not in SWITCHBOARD_OUTBOUND_ALLOW'));
      expect(server.received).toHaveLength(0);
    });

    it('connects through the guarded lookup: a name resolving to the test server is called', async () => {
      const port = new URL(server.url('/')).port;
      const resolve: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
      expect(await handler({}, resolve).call(`http://hooks.test:${port}/string`, invocation())).toEqual({ textResultForLlm: 'x', resultType: 'success' });
      expect(server.received).toHaveLength(1);
    });

    it('refuses at connect time a name that answered a good address when checked and a metadata address when called (DNS rebinding)', async () => {
      const port = new URL(server.url('/')).port;
      const answers = ['127.0.0.1', '169.254.169.254'];
      const resolve: HostResolver = async () => [{ address: answers.shift() ?? '169.254.169.254', family: 4 }];
      const guard = new OutboundUrlGuard({ allow: [], resolve });
      const webhooks = new WebhookToolHandler(new SignedWebhook(loadConfig({}), guard));
      const url = `http://rebind.test:${port}/string`;

      expect(await guard.check(url)).toEqual({ allowed: true }); // what session create saw
      const result = await webhooks.call(url, invocation());

      expect(result).toMatchObject({ resultType: 'failure', textResultForLlm: refusedText('rebind.test (169.254.169.254) is a cloud metadata address') });
      expect(server.received).toHaveLength(0);
    });
  });
});

describe('parseToolAnswer', () => {
  const neither = 'Tool t failed: its webhook answered with a body that is neither {"result": ...} nor {"textResultForLlm": ..., "resultType": ...}.';

  it.each([
    ['a string result', '{"result":"x"}', 'x'],
    ['an object result', '{"result":{"a":1,"b":[2]}}', '{"a":1,"b":[2]}'],
    ['a number result', '{"result":42}', '42'],
    ['a boolean result', '{"result":false}', 'false'],
    ['a null result', '{"result":null}', 'null'],
    ['an array result', '{"result":[1,"two"]}', '[1,"two"]'],
    ['an empty string result', '{"result":""}', ''],
  ])('turns %s into success text', (_label, raw, expected) => {
    expect(parseToolAnswer('t', raw)).toEqual({ textResultForLlm: expected, resultType: 'success' });
  });

  it.each(['success', 'failure', 'rejected', 'denied'] as const)('keeps resultType %s', (resultType) => {
    expect(parseToolAnswer('t', JSON.stringify({ textResultForLlm: 'txt', resultType }))).toEqual({ textResultForLlm: 'txt', resultType });
  });

  it.each([
    ['missing', {}],
    ['unknown', { resultType: 'exploded' }],
    ['not a string', { resultType: 3 }],
  ])('defaults a %s resultType to success', (_label, extra) => {
    expect(parseToolAnswer('t', JSON.stringify({ textResultForLlm: 'txt', ...extra }))).toEqual({
      textResultForLlm: 'txt',
      resultType: 'success',
    });
  });

  it.each([
    [
      'keeps a string error',
      '{"textResultForLlm":"no","resultType":"denied","error":"why"}',
      { textResultForLlm: 'no', resultType: 'denied', error: 'why' },
    ],
    ['drops a non-string error', '{"textResultForLlm":"no","resultType":"denied","error":{"code":1}}', { textResultForLlm: 'no', resultType: 'denied' }],
    [
      'drops unknown fields of a structured answer',
      '{"textResultForLlm":"ok","resultType":"success","toolTelemetry":{"x":1},"extra":true}',
      { textResultForLlm: 'ok', resultType: 'success' },
    ],
    [
      'prefers textResultForLlm over result when both are present',
      '{"result":"ignored","textResultForLlm":"used","resultType":"success"}',
      { textResultForLlm: 'used', resultType: 'success' },
    ],
    [
      'falls back to result when textResultForLlm is not a string',
      '{"textResultForLlm":5,"result":"r"}',
      { textResultForLlm: 'r', resultType: 'success' },
    ],
  ])('%s', (_label, raw, answer) => {
    expect(parseToolAnswer('t', raw)).toEqual(answer);
  });

  it.each([
    ['an empty object', '{}'],
    ['an object with other keys', '{"output":"x"}'],
    ['a non-string textResultForLlm alone', '{"textResultForLlm":5}'],
    ['a JSON array', '[{"result":"x"}]'],
    ['a JSON string', '"x"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['an empty body', ''],
    ['plain text', 'OK'],
    ['truncated JSON', '{"result":'],
  ])('refuses %s with the "neither" failure', (_label, raw) => {
    expect(parseToolAnswer('t', raw)).toEqual({
      textResultForLlm: neither,
      resultType: 'failure',
      error: raw ? `${neither} ${raw}` : neither,
    });
  });

  it('refuses an unreadable (undefined) body without detail', () => {
    expect(parseToolAnswer('t', undefined)).toEqual({ textResultForLlm: neither, resultType: 'failure', error: neither });
  });

  it('names the tool in the failure', () => {
    expect(parseToolAnswer('lookup_customer', 'nope').textResultForLlm).toMatch(/^Tool lookup_customer failed: /);
  });

  it('quotes at most 500 characters of a bad body in the error', () => {
    const raw = 'z'.repeat(2000);
    const result = parseToolAnswer('t', raw);
    expect(result.error).toBe(`${neither} ${'z'.repeat(500)}`);
  });
});
