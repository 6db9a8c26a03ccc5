import * as fc from 'fast-check';
import * as net from 'node:net';
import * as path from 'node:path';
import { RequestRouter } from '../../src/tool-dispatch/request-router';
import { FakeCopilotCli } from '../fixtures/fake-copilot-cli';
import { collectUntilExit, freePort, spawnTs, waitForHttp } from '../fixtures/service-process';
import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';
import { WebhookRecorder } from '../fixtures/webhook-recorder';

/**
 * Fuzzing the JSON-RPC surface Switchboard exposes to the Copilot CLI: whatever the CLI sends (bad
 * frames, ill-typed params, junk events, huge or deeply nested payloads), Switchboard must answer
 * every request it can parse, keep serving HTTP, keep routing real requests, and lose nothing it
 * already recorded. Bytes go through the fake's sendRaw; structured garbage through request/emitEvent.
 */

const REQUEST_METHODS = ['tool.call', 'permission.request', 'hooks.invoke', 'userInput.request'] as const;
const NOT_SUPPORTED = (tool: string) => `Tool '${tool}' is not supported by this client instance.`;
/** Fuzzed requests wait this long for a user who never answers; keeps the property fast. */
const USER_INPUT_TIMEOUT_MS = 100;
const FIVE_MB = 5 * 1024 * 1024;

const frame = (body: string | Buffer): Buffer => {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`, 'ascii'), bytes]);
};
/** `{"a":{"a":...1...}}`, `depth` levels: JSON.parse takes it, JSON.stringify of the result overflows the stack. */
const deeplyNested = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const DEEP = 20_000;

function harnessOptions(protocolVersion: 2 | 3) {
  return {
    protocolVersion,
    config: { tools: { webhookTimeoutMs: 2_000, webhookSecret: undefined, userInputTimeoutMs: USER_INPUT_TIMEOUT_MS } },
  };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Switchboard's answers to hand-framed requests, read off the fake's client socket: the fake's own
 * vscode-jsonrpc connection drops answers to ids it did not issue. Hand-framed ids start with `fuzz-`.
 */
class AnswerTap {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly answers = new Map<string, Json>();
  private readonly waiters = new Map<string, (answer: Json) => void>();

  constructor(fake: FakeCopilotCli) {
    // Private to the fixture; bracket access is the test's deliberate way in.
    const clients = fake['clients'] as { socket: net.Socket }[];
    clients[clients.length - 1].socket.on('data', (chunk: Buffer) => this.onData(chunk));
  }

  wait(id: string, timeoutMs = 3_000): Promise<Json> {
    const seen = this.answers.get(id);
    if (seen) return Promise.resolve(seen);
    return within(new Promise<Json>((resolve) => this.waiters.set(id, resolve)), timeoutMs, `answer to ${id}`);
  }

  has(id: string): boolean {
    return this.answers.has(id);
  }

  /** Settles every wait still open (with undefined), so no timer outlives the test. */
  close(): void {
    for (const settle of this.waiters.values()) settle(undefined);
    this.waiters.clear();
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString('ascii'))?.[1]);
      const start = headerEnd + 4;
      if (!Number.isFinite(length) || this.buffer.length < start + length) return;
      const message = JSON.parse(this.buffer.subarray(start, start + length).toString('utf8'));
      this.buffer = this.buffer.subarray(start + length);
      if (typeof message?.id !== 'string' || !message.id.startsWith('fuzz-') || 'method' in message) continue;
      this.answers.set(message.id, message);
      this.waiters.get(message.id)?.(message);
      this.waiters.delete(message.id);
    }
  }
}

/**
 * The protocol-3 broadcasts are handled fire-and-forget (`void this.onExternalToolRequested(...)`):
 * a rejection there is an unhandled rejection, which ends a Node 20 process. Recording them here
 * (instead of letting jest report a bare stack) names the input; the last describe shows the real process.
 */
function recordHandlerRejections(h: SessionHarness): { error: unknown; event: Json }[] {
  const rejections: { error: unknown; event: Json }[] = [];
  const router = h.app.app.get<RequestRouter, Record<string, (event: Json) => Promise<void>>>(RequestRouter);
  for (const name of ['onExternalToolRequested', 'onPermissionRequested']) {
    const original = router[name].bind(router);
    router[name] = (event: Json) => {
      const settled = original(event);
      settled.catch((error: unknown) => rejections.push({ error, event }));
      return settled;
    };
  }
  return rejections;
}

function expectNoHandlerRejections(rejections: { error: unknown; event: Json }[]): void {
  if (rejections.length === 0) return;
  const lines = rejections.map(({ error, event }) => {
    const shown = JSON.stringify(event, (_k, v: unknown) => (typeof v === 'string' && v.length > 80 ? `${v.slice(0, 80)}...` : v));
    return `  ${(error as Error)?.message ?? String(error)} <- ${shown?.slice(0, 300)}`;
  });
  throw new Error(
    `${rejections.length} CLI event handler(s) rejected; in production that is an unhandled rejection and the process exits, and the CLI's request is never answered:\n${lines.join('\n')}`,
  );
}

const eventKey = (e: Json) => `${e.streamPosition}:${e.eventId}:${e.type}`;

async function streamEvents(h: SessionHarness, sessionId: string): Promise<Json[]> {
  const page = await h.http('GET', `/api/streams/session-${sessionId}/events?limit=1000`);
  expect(page.status).toBe(200);
  return page.body.events as Json[];
}

/** The fuzzed params: any JSON, no params at all, or objects that resolve so the handlers see the garbage. */
function requestParams(sessionIds: string[]): fc.Arbitrary<Json> {
  const anyJson = fc.jsonValue({ maxDepth: 4 });
  return fc.oneof(
    { arbitrary: anyJson, weight: 3 },
    { arbitrary: fc.constant(undefined), weight: 1 },
    {
      arbitrary: fc.record(
        {
          sessionId: fc.constantFrom(...sessionIds, 'nobody', ''),
          toolName: fc.oneof({ arbitrary: fc.constantFrom('lookup', 'secret', 'nope'), weight: 3 }, { arbitrary: anyJson, weight: 1 }),
          toolCallId: anyJson,
          arguments: anyJson,
          permissionRequest: fc.oneof(
            { arbitrary: fc.record({ kind: fc.constantFrom('custom-tool', 'shell', 'write'), toolName: anyJson }), weight: 3 },
            { arbitrary: anyJson, weight: 1 },
          ),
          hookType: anyJson,
          input: anyJson,
          question: anyJson,
          choices: anyJson,
          allowFreeform: anyJson,
        },
        { requiredKeys: ['sessionId'] },
      ),
      weight: 3,
    },
  );
}

describe('JSON-RPC fuzz, protocol 2: frames and requests from the CLI (fake CLI over TCP, real app, real SQLite)', () => {
  const CHILD = 'fuzz-child-7d1c';
  let h: SessionHarness;
  let parent: string;
  let tap: AnswerTap;
  let before: Json[];
  let rejections: { error: unknown; event: Json }[];
  let seq = 0;

  beforeAll(async () => {
    h = await startSessionHarness(harnessOptions(2));
    parent = await h.createTeamSession();
    await h.fake.emitEvent(parent, { type: 'subagent.started', data: { remoteSessionId: CHILD, toolCallId: 'call_fuzz', agentName: 'keeper' } });
    await waitUntil(async () => (await h.http('GET', `/api/sessions/${parent}`)).body.subAgentLaunches.length === 1, 'the child mapping');
    tap = new AnswerTap(h.fake);
    rejections = recordHandlerRejections(h);
    before = await streamEvents(h, parent);
    expect(before.map((e) => e.type)).toEqual(expect.arrayContaining(['session.created', 'subagent.started']));
  });
  afterAll(() => h.close());

  /** A hand-framed request; resolves with Switchboard's answer (the whole JSON-RPC response). */
  async function rawRequest(method: unknown, params?: Json, extra: Record<string, unknown> = {}): Promise<Json> {
    const id = `fuzz-${++seq}`;
    const message: Json = { jsonrpc: '2.0', id, method, ...extra };
    if (params !== undefined) message.params = params;
    const answered = tap.wait(id);
    await h.fake.sendRaw(frame(JSON.stringify(message)));
    return answered;
  }

  const expectAnswer = (answer: Json) => {
    expect(answer.jsonrpc).toBe('2.0');
    expect('result' in answer).not.toBe('error' in answer);
    if ('error' in answer) {
      expect(typeof answer.error.code).toBe('number');
      expect(typeof answer.error.message).toBe('string');
    }
  };

  /** /health answers, and a child's well-formed tool.call still resolves, passes the allowlist and reaches the webhook. */
  async function expectStillServing(): Promise<void> {
    expect((await h.http('GET', '/health')).status).toBe(200);
    const toolCallId = `probe-${++seq}`;
    const answer = await within(
      h.fake.request<Json>('tool.call', { sessionId: CHILD, toolCallId, toolName: 'lookup', arguments: { key: 'probe' } }),
      3_000,
      'answer to the probe tool.call',
    );
    expect(answer).toEqual({ result: { textResultForLlm: 'ok:lookup', resultType: 'success' } });
    expect(h.webhooks.calls.find((c) => c.body.toolCallId === toolCallId)?.body).toMatchObject({
      sessionId: parent,
      childSessionId: CHILD,
      agentName: 'keeper',
    });
    const denied = await h.fake.request<Json>('tool.call', { sessionId: CHILD, toolCallId: `${toolCallId}-s`, toolName: 'secret', arguments: {} });
    expect(denied.result.textResultForLlm).toBe(NOT_SUPPORTED('secret'));
    expectNoHandlerRejections(rejections);
  }

  it('answers every frame-valid request whatever its params (property over arbitrary JSON, all four methods)', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...REQUEST_METHODS), requestParams([parent, CHILD]), async (method, params) => {
        const answer = await rawRequest(method, params);
        expectAnswer(answer);
        const kind = `${method} ${'result' in answer ? 'result' : answer.error.code}`;
        seen.set(kind, (seen.get(kind) ?? 0) + 1);
      }),
      { numRuns: 300 },
    );
    // The generator reaches past resolution: every method was answered with a result at least once.
    expect(REQUEST_METHODS.filter((m) => !seen.has(`${m} result`) && m !== 'userInput.request')).toEqual([]);
    expect(seen.get('userInput.request -32603')).toBeGreaterThan(0); // asked, nobody answered, timed out
    await expectStillServing();
  }, 20_000);

  it('answers params of the wrong JSON type with InvalidParams', async () => {
    // vscode-jsonrpc spreads by-position params, so [] hands the handler its cancellation token: still refused.
    for (const params of [
      null,
      0,
      -1.5,
      'child',
      true,
      [],
      [null],
      [1, 2, 3],
      ['fuzz-child-7d1c'],
      [[{ sessionId: CHILD }]],
      { sessionId: ['x'] },
      { sessionId: { $ne: null } },
    ]) {
      for (const method of REQUEST_METHODS) {
        const answer = await rawRequest(method, params);
        expect({ method, params, error: answer.error?.code }).toEqual({ method, params, error: -32602 });
      }
    }
    await expectStillServing();
  });

  it('answers unknown methods MethodNotFound and ignores notifications, responses and non-JSON-RPC objects', async () => {
    for (const method of ['no.such.method', '', 'session.event', 'tool.Call', '$/unknown', 'constructor', '__proto__']) {
      expect((await rawRequest(method, {})).error.code).toBe(-32601);
    }
    const callsBefore = h.webhooks.calls.length;
    const noise: Json[] = [
      null,
      0,
      'string',
      [],
      {},
      { hello: 'world' },
      { jsonrpc: '2.0' },
      { jsonrpc: '2.0', method: 'tool.call', params: { sessionId: CHILD, toolName: 'lookup', toolCallId: 'as-notification', arguments: {} } },
      { jsonrpc: '2.0', method: 'no.such.notification', params: { a: 1 } },
      { jsonrpc: '2.0', method: '$/cancelRequest', params: null },
      { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 'fuzz-never' } },
      { jsonrpc: '2.0', id: 987654, result: { stray: true } },
      { jsonrpc: '2.0', id: 'not-ours', error: { code: 'x', message: 5 } },
      { jsonrpc: '2.0', id: { nested: 1 }, method: 'tool.call', params: {} },
      { jsonrpc: '2.0', id: null, method: 'tool.call', params: { sessionId: CHILD, toolName: 'lookup', toolCallId: 'null-id', arguments: {} } },
      { jsonrpc: '2.0', id: 'fuzz-method-not-string', method: 42, params: {} },
      // JSON-RPC batches: vscode-jsonrpc does not implement them (no answer is sent); they must not hurt either.
      [
        {
          jsonrpc: '2.0',
          id: 'fuzz-batch-1',
          method: 'tool.call',
          params: { sessionId: CHILD, toolName: 'lookup', toolCallId: 'batch-1', arguments: {} },
        },
        { jsonrpc: '2.0', method: 'session.event', params: { sessionId: parent, event: { type: 'x', data: {} } } },
      ],
    ];
    for (const message of noise) await h.fake.sendRaw(frame(JSON.stringify(message)));
    await expectStillServing();
    // Notifications named like requests are not requests: nothing ran.
    expect(h.webhooks.calls.slice(callsBefore).map((c) => c.body.toolCallId)).not.toEqual(
      expect.arrayContaining(['as-notification', 'null-id', 'batch-1']),
    );
    // A request Switchboard cannot recognise as one gets no answer (JSON-RPC would want -32600); the CLI sent nothing it waits on.
    expect(tap.has('fuzz-method-not-string')).toBe(false);
  });

  it('skips a body that is not JSON under a valid Content-Length and reads the next frame', async () => {
    const bodies: Buffer[] = [
      Buffer.from('{'),
      Buffer.from('not json at all'),
      Buffer.from('{"jsonrpc":"2.0","id":"fuzz-cut","method":"tool.call","params":{"sessionId":'),
      Buffer.from('{"a":1}{"b":2}'),
      Buffer.from([0xff, 0xfe, 0x00, 0x01, 0xc3]),
      Buffer.from('"\ud800"'),
      Buffer.alloc(0),
      Buffer.from('   '),
      Buffer.from('x'.repeat(FIVE_MB)),
    ];
    for (const body of bodies) {
      // The garbage and the next request in one write: the reader must not wait for more bytes to go on.
      const id = `fuzz-${++seq}`;
      const next = frame(
        JSON.stringify({ jsonrpc: '2.0', id, method: 'tool.call', params: { sessionId: CHILD, toolCallId: id, toolName: 'lookup', arguments: {} } }),
      );
      const answered = tap.wait(id, 2_000);
      await h.fake.sendRaw(Buffer.concat([frame(body), next]));
      expect({ body: body.subarray(0, 40).toString('latin1'), answer: (await answered).result }).toEqual({
        body: body.subarray(0, 40).toString('latin1'),
        answer: { result: { textResultForLlm: 'ok:lookup', resultType: 'success' } },
      });
    }
    expect(tap.has('fuzz-cut')).toBe(false);
    await expectStillServing();
  });

  it('answers a tool.call whose arguments nest deeper than JSON.stringify can go', async () => {
    const id = `fuzz-${++seq}`;
    const body = `{"jsonrpc":"2.0","id":"${id}","method":"tool.call","params":{"sessionId":"${CHILD}","toolCallId":"${id}","toolName":"lookup","arguments":${deeplyNested(DEEP)}}}`;
    const answered = tap.wait(id, 3_000);
    await h.fake.sendRaw(frame(body));
    expectAnswer(await answered);
    await expectStillServing();
  });

  it('routes a 5 MB argument string to the webhook, answers it, and records the call', async () => {
    const big = 'a'.repeat(FIVE_MB);
    const answer = await within(
      h.fake.request<Json>('tool.call', { sessionId: CHILD, toolCallId: 'huge-1', toolName: 'lookup', arguments: { key: big } }),
      10_000,
      'answer to the 5 MB tool.call',
    );
    expect(answer.result).toEqual({ textResultForLlm: 'ok:lookup', resultType: 'success' });
    const call = h.webhooks.calls.find((c) => c.body.toolCallId === 'huge-1')!;
    expect((call.body.arguments as Json).key).toHaveLength(FIVE_MB);
    // A 5 MB request to an unknown method is refused like a small one.
    expect((await rawRequest('no.such.method', { blob: big })).error.code).toBe(-32601);
    const routed = await waitUntil(
      async () => (await streamEvents(h, parent)).find((e) => e.type === 'tool_call.routed' && e.data.toolCallId === 'huge-1'),
      'the audit event of the 5 MB call',
    );
    expect(routed.data.arguments.key).toHaveLength(FIVE_MB);
    await expectStillServing();
  }, 20_000);

  it('lost nothing it had recorded before the fuzzing', async () => {
    const after = await streamEvents(h, parent);
    expect(after.slice(0, before.length).map(eventKey)).toEqual(before.map(eventKey));
    expect(after.length).toBeGreaterThan(before.length);
    expectNoHandlerRejections(rejections);
  });
});

describe('JSON-RPC fuzz, protocol 3: session.event notifications (fake CLI over TCP, real app, real SQLite)', () => {
  const TASK = 'task-fuzz-1';
  let h: SessionHarness;
  let parent: string;
  let tap: AnswerTap;
  let before: Json[];
  let rejections: { error: unknown; event: Json }[];
  let seq = 0;

  beforeAll(async () => {
    h = await startSessionHarness(harnessOptions(3));
    parent = await h.createTeamSession();
    await h.fake.emitEvent(parent, { type: 'subagent.started', agentId: TASK, data: { toolCallId: 'call_task_fuzz', agentName: 'keeper' } });
    await waitUntil(async () => (await h.http('GET', `/api/sessions/${parent}`)).body.subAgentLaunches.length === 1, 'the child mapping');
    tap = new AnswerTap(h.fake);
    rejections = recordHandlerRejections(h);
    before = await streamEvents(h, parent);
  });
  afterAll(() => h.close());

  const toolAnswer = (requestId: string, timeoutMs = 2_000) =>
    h.fake.waitFor<Json>('session.tools.handlePendingToolCall', (p) => p.requestId === requestId, timeoutMs);
  const permissionAnswer = (requestId: string, timeoutMs = 2_000) =>
    h.fake.waitFor<Json>('session.permissions.handlePendingPermissionRequest', (p) => p.requestId === requestId, timeoutMs);
  const rawEvent = (params: Json) => h.fake.sendRaw(frame(JSON.stringify({ jsonrpc: '2.0', method: 'session.event', params })));

  async function expectStillServing(): Promise<void> {
    expect((await h.http('GET', '/health')).status).toBe(200);
    const requestId = `probe-${++seq}`;
    const answered = toolAnswer(requestId, 3_000);
    await h.fake.emitEvent(parent, {
      type: 'external_tool.requested',
      agentId: TASK,
      data: { requestId, toolCallId: requestId, toolName: 'lookup', arguments: { key: 'p' } },
    });
    expect((await answered).result).toEqual({ textResultForLlm: 'ok:lookup', resultType: 'success' });
    // A well-formed tool.call from the known child (by its task id) still routes too.
    const direct = await within(
      h.fake.request<Json>('tool.call', { sessionId: TASK, toolCallId: `${requestId}-d`, toolName: 'lookup', arguments: {} }),
      3_000,
      'tool.call answer',
    );
    expect(direct.result.textResultForLlm).toBe('ok:lookup');
    expect(h.webhooks.calls.find((c) => c.body.toolCallId === requestId)?.body).toMatchObject({
      sessionId: parent,
      childSessionId: TASK,
      agentName: 'keeper',
    });
    const deniedId = `${requestId}-s`;
    const denied = toolAnswer(deniedId, 3_000);
    await h.fake.emitEvent(parent, { type: 'external_tool.requested', agentId: TASK, data: { requestId: deniedId, toolName: 'secret', arguments: {} } });
    expect((await denied).result.textResultForLlm).toBe(NOT_SUPPORTED('secret'));
    expectNoHandlerRejections(rejections);
  }

  it('answers every request event and records every well-formed one, whatever its data (property over arbitrary JSON, three event types)', async () => {
    const answered: string[] = [];
    const recordable: string[] = [];
    const anyJson = fc.jsonValue({ maxDepth: 4 });
    // Mostly objects with the fields routing reads, each either plausible or any JSON; sometimes any JSON at all.
    const plausibleOrAny = <T>(plausible: fc.Arbitrary<T>) => fc.oneof({ arbitrary: plausible, weight: 4 }, { arbitrary: anyJson, weight: 1 });
    const data = fc.oneof(
      { arbitrary: anyJson, weight: 1 },
      {
        arbitrary: fc.record(
          {
            toolName: plausibleOrAny(fc.constantFrom('lookup', 'secret', 'nope')),
            toolCallId: anyJson,
            arguments: anyJson,
            permissionRequest: plausibleOrAny(fc.record({ kind: fc.constantFrom('custom-tool', 'shell', 'url'), toolName: anyJson })),
            agentName: plausibleOrAny(fc.constantFrom('keeper', 'free', 'ghost')),
            remoteSessionId: anyJson,
            ownerNativeSessionId: anyJson,
            ownerSessionId: anyJson,
            error: anyJson,
          },
          { requiredKeys: [] },
        ),
        weight: 3,
      },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('external_tool.requested', 'permission.requested', 'subagent.started'),
        data,
        fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 }),
        fc.constantFrom('main', 'child', 'unknown'),
        async (type, fuzzed, withRequestId, who) => {
          const n = ++seq;
          const requestId = `fuzz-ev-${n}`;
          // subagent.started gets a fresh task id: re-registering TASK under another agent would be legitimate, not a bug.
          const agentId =
            type === 'subagent.started'
              ? who === 'main'
                ? undefined
                : `task-new-${n}`
              : { main: undefined, child: TASK, unknown: `task-ghost-${n}` }[who];
          const isObject = fuzzed !== null && typeof fuzzed === 'object' && !Array.isArray(fuzzed);
          const payload = withRequestId && isObject ? { ...fuzzed, requestId } : fuzzed;
          const expectsAnswer =
            payload === fuzzed
              ? undefined
              : type === 'external_tool.requested'
                ? toolAnswer(requestId)
                : type === 'permission.requested'
                  ? permissionAnswer(requestId)
                  : undefined;
          const sent = await h.fake.emitEvent(parent, { type, ...(agentId ? { agentId } : {}), data: payload as Json });
          // Data that is no object may be dropped as malformed (it carries no requestId to answer); the rest is kept.
          if (isObject) recordable.push(sent.event.id!);
          if (expectsAnswer) {
            const answer = await expectsAnswer;
            answered.push(`${type} ${answer.error ? 'error' : (answer.result.kind ?? answer.result.resultType)}`);
            if (type === 'external_tool.requested') expect('result' in answer || typeof answer.error === 'string').toBe(true);
            else expect(['approve-once', 'reject']).toContain(answer.result.kind);
            // An unknown requester is never routed as if the main agent asked.
            if (who === 'unknown' && type === 'external_tool.requested') expect(answer.error).toBe(`unknown session task-ghost-${n}`);
          }
          expectNoHandlerRejections(rejections);
        },
      ),
      { numRuns: 250 },
    );
    // The generator reaches every outcome: routed to the webhook, refused, denied by policy.
    expect([...new Set(answered)]).toEqual(
      expect.arrayContaining(['external_tool.requested success', 'external_tool.requested error', 'permission.requested reject']),
    );
    await expectStillServing();
    // Every well-formed event of a session Switchboard owns is in its stream, once.
    const recorded = await waitUntil(async () => {
      const ids = (await streamEvents(h, parent)).map((e) => e.data.cliEventId);
      return recordable.every((id) => ids.includes(id)) && ids;
    }, 'every well-formed fuzzed event in the stream');
    expect(recordable.filter((id) => recorded.indexOf(id) !== recorded.lastIndexOf(id))).toEqual([]);
  }, 25_000);

  it.each<[string, Json]>([
    ['params null', null],
    ['params a number', 42],
    ['params a string', '$PARENT'],
    ['params an empty array', []],
    ['params an empty object', {}],
    ['sessionId a number', { sessionId: 42, event: { type: 'x', data: {} } }],
    ['sessionId unknown', { sessionId: 'nobody', event: { type: 'external_tool.requested', data: { requestId: 'fuzz-nobody', toolName: 'lookup' } } }],
    ['event missing', { sessionId: '$PARENT' }],
    ['event null', { sessionId: '$PARENT', event: null }],
    ['event a string', { sessionId: '$PARENT', event: 'external_tool.requested' }],
    ['event.type a number', { sessionId: '$PARENT', event: { type: 7, data: {} } }],
    ['event.type empty', { sessionId: '$PARENT', event: { type: '', data: {} } }],
    ['data missing', { sessionId: '$PARENT', event: { type: 'external_tool.requested' } }],
    ['data null', { sessionId: '$PARENT', event: { type: 'permission.requested', data: null } }],
    ['data a string', { sessionId: '$PARENT', event: { type: 'external_tool.requested', data: 'requestId' } }],
    ['data an array', { sessionId: '$PARENT', event: { type: 'subagent.started', data: ['agentName', 'keeper'] } }],
    [
      'id, timestamp and ephemeral ill-typed',
      { sessionId: '$PARENT', event: { type: 'assistant.message', id: { x: 1 }, timestamp: 5, ephemeral: 'yes', data: {} } },
    ],
    ['requestId a number', { sessionId: '$PARENT', event: { type: 'external_tool.requested', data: { requestId: 5, toolName: 'lookup' } } }],
    [
      'subagent.started with ill-typed names',
      {
        sessionId: '$PARENT',
        event: { type: 'subagent.started', id: 'ev-ill', data: { remoteSessionId: 5, toolCallId: { a: 1 }, agentName: ['keeper'] } },
      },
    ],
  ])('drops or records a session.event with %s, and keeps serving', async (_name, params) => {
    const resolved = JSON.parse(JSON.stringify(params ?? null).replaceAll('$PARENT', parent));
    await rawEvent(resolved);
    await expectStillServing();
  });

  // Protocol 3 names the requesting sub-agent in the envelope's agentId. An ill-typed one must get an
  // error answer: the CLI waits on every request, and it must never be taken for the main agent (all tools).
  it.each<[string, Json]>([
    ['a number', 42],
    ['true', true],
    ['an object', { id: TASK }],
    ['an array', [TASK]],
    ['an empty string', ''],
  ])('answers external_tool.requested and permission.requested whose agentId is %s with a refusal, never as the main agent', async (_name, agentId) => {
    const n = ++seq;
    const toolId = `fuzz-agent-tool-${n}`;
    const permId = `fuzz-agent-perm-${n}`;
    const secretCalls = h.webhooks.callsTo('/secret').length;
    // Answers take milliseconds; a second is plenty and keeps a failing run short.
    const tool = toolAnswer(toolId, 1_000).catch((e: Error) => e);
    const perm = permissionAnswer(permId, 1_000).catch((e: Error) => e);
    await rawEvent({
      sessionId: parent,
      event: { id: `ev-${toolId}`, type: 'external_tool.requested', agentId, data: { requestId: toolId, toolName: 'secret', arguments: {} } },
    });
    await rawEvent({
      sessionId: parent,
      event: {
        id: `ev-${permId}`,
        type: 'permission.requested',
        agentId,
        data: { requestId: permId, permissionRequest: { kind: 'custom-tool', toolName: 'secret' } },
      },
    });
    const [toolAnswered, permAnswered] = await Promise.all([tool, perm]);
    const handlerErrors = rejections.splice(0).map((r) => (r.error as Error).message);
    expect({ toolAnswered: !(toolAnswered instanceof Error), permAnswered: !(permAnswered instanceof Error), handlerErrors }).toEqual({
      toolAnswered: true,
      permAnswered: true,
      handlerErrors: [],
    });
    expect(toolAnswered.result?.resultType ?? 'error').not.toBe('success');
    expect(permAnswered.result.kind).toBe('reject');
    expect(h.webhooks.callsTo('/secret')).toHaveLength(secretCalls);
  });

  it('answers an external_tool.requested whose arguments nest deeper than JSON.stringify can go', async () => {
    const requestId = `fuzz-deep-${++seq}`;
    const answered = toolAnswer(requestId, 1_500).catch((e: Error) => e);
    const body = `{"jsonrpc":"2.0","method":"session.event","params":{"sessionId":"${parent}","event":{"id":"ev-${requestId}","type":"external_tool.requested","agentId":"${TASK}","data":{"requestId":"${requestId}","toolCallId":"c","toolName":"lookup","arguments":${deeplyNested(DEEP)}}}}}`;
    await h.fake.sendRaw(frame(body));
    const answer = await answered;
    const handlerErrors = rejections.splice(0).map((r) => (r.error as Error).message);
    expect({ answered: !(answer instanceof Error), handlerErrors }).toEqual({ answered: true, handlerErrors: [] });
    expect(answer.result?.resultType ?? 'error').not.toBe('success');
    await expectStillServing();
  });

  it('routes a 5 MB external_tool.requested and records it', async () => {
    const requestId = `fuzz-huge-${++seq}`;
    const answered = toolAnswer(requestId, 10_000);
    const sent = await h.fake.emitEvent(parent, {
      type: 'external_tool.requested',
      agentId: TASK,
      data: { requestId, toolCallId: requestId, toolName: 'lookup', arguments: { key: 'b'.repeat(FIVE_MB) } },
    });
    expect((await answered).result.resultType).toBe('success');
    await waitUntil(async () => (await streamEvents(h, parent)).some((e) => e.data.cliEventId === sent.event.id), 'the 5 MB event in the stream');
    await expectStillServing();
  }, 20_000);

  it('lost nothing it had recorded before the fuzzing', async () => {
    const after = await streamEvents(h, parent);
    expect(after.slice(0, before.length).map(eventKey)).toEqual(before.map(eventKey));
    expect(tap.has('fuzz-never')).toBe(false);
  });
});

/**
 * Header-level garbage (a line that is no `Name: value` header, no Content-Length) desynchronises
 * vscode-jsonrpc's reader: it reports an error and, unless the junk happened to end in a blank line,
 * every later frame is read as more bad headers. Switchboard cannot resync that stream; what a user
 * must get is a dropped and re-established connection with its sessions marked interrupted (then
 * resumable), never a connection that looks alive while every request from the CLI silently hangs.
 */
describe('JSON-RPC fuzz: header-level garbage on the CLI connection (fake CLI over TCP, real app)', () => {
  const CHILD = 'fuzz-child-hdr';
  let h: SessionHarness;
  let parent: string;

  beforeEach(async () => {
    h = await startSessionHarness(harnessOptions(2));
    parent = await h.createTeamSession();
    await h.fake.emitEvent(parent, { type: 'subagent.started', data: { remoteSessionId: CHILD, toolCallId: 'call_hdr', agentName: 'keeper' } });
    await waitUntil(async () => (await h.http('GET', `/api/sessions/${parent}`)).body.subAgentLaunches.length === 1, 'the child mapping');
  });
  afterEach(() => h.close());

  it.each<[string, string]>([
    ['a stray line (no colon, no blank line)', 'Debugger attached.\n'],
    ['a header block without Content-Length', 'Content-Type: application/json\r\n\r\n'],
    ['a header line without a colon, then a blank line', 'garbage\r\n\r\n'],
    ['a Content-Length that is not a number', 'Content-Length: twelve\r\n\r\n'],
  ])(
    'after %s: the next request is answered, or the connection is re-established and the session interrupted',
    async (_name, garbage) => {
      const tap = new AnswerTap(h.fake);
      const socket = (h.fake['clients'] as { socket: net.Socket }[])[0].socket;
      const dropped = new Promise<{ dropped: true }>((resolve) => socket.once('close', () => resolve({ dropped: true })));
      h.fake.received.length = 0;
      // The garbage and the next request in ONE write, as a stray stdout line right before a frame arrives.
      const request = {
        jsonrpc: '2.0',
        id: 'fuzz-after-garbage',
        method: 'tool.call',
        params: { sessionId: CHILD, toolCallId: 'after-garbage', toolName: 'lookup', arguments: {} },
      };
      await h.fake.sendRaw(Buffer.concat([Buffer.from(garbage, 'latin1'), frame(JSON.stringify(request))]));
      const outcome = await Promise.race([
        tap.wait('fuzz-after-garbage', 1_500).then(
          (answer: Json) => ({ answered: answer?.result }),
          () => ({ hung: 'neither answered nor dropped within 1.5 s: the connection looks alive but the request is lost' }),
        ),
        dropped,
      ]);
      tap.close();
      if ('answered' in outcome) {
        expect(outcome.answered).toEqual({ result: { textResultForLlm: 'ok:lookup', resultType: 'success' } });
      } else {
        expect(outcome).toEqual({ dropped: true });
        await h.fake.waitFor('ping', undefined, 5_000); // reconnected: protocol 2 answers connect MethodNotFound, then ping
        const session = await waitUntil(async () => {
          const s = (await h.http('GET', `/api/sessions/${parent}`)).body;
          return s.status === 'interrupted' && s;
        }, 'the session to be interrupted');
        expect(session.statusReason).toMatch(/Copilot CLI/);
        expect((await h.http('POST', `/api/sessions/${parent}/resume`)).status).toBe(200);
        const again = await h.fake.request<Json>('tool.call', { sessionId: CHILD, toolCallId: 'after-reconnect', toolName: 'lookup', arguments: {} });
        expect(again.result.textResultForLlm).toBe('ok:lookup');
      }
      // Either way the connection is usable afterwards, and the service serves HTTP.
      const later = await within(
        h.fake.request<Json>('tool.call', { sessionId: CHILD, toolCallId: 'later', toolName: 'lookup', arguments: {} }),
        3_000,
        'answer to a later tool.call',
      );
      expect(later.result.textResultForLlm).toBe('ok:lookup');
      expect((await h.http('GET', '/health')).status).toBe(200);
    },
    15_000,
  );
});

/**
 * The in-process suites above see a rejected CLI-event handler as a recorded failure; this is what it
 * means for the real service process (src/main.ts, no unhandledRejection handler, Node 20 defaults).
 */
describe('JSON-RPC fuzz: the service process (src/main.ts) against a CLI sending ill-typed events', () => {
  it('stays up and answers the CLI when a protocol-3 request has an ill-typed agentId or over-deep arguments', async () => {
    const fake = await new FakeCopilotCli({ protocolVersion: 3 }).start();
    const webhooks = await new WebhookRecorder().start();
    const tmp = makeTempDir();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const service = spawnTs('src/main.ts', [], {
      PORT: String(port),
      HOST: '127.0.0.1',
      SWITCHBOARD_DB: path.join(tmp.dir, 'switchboard.db'),
      COPILOT_CLI_URL: fake.url,
      COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:9/v1',
      COPILOT_PROVIDER_API_KEY: 'test',
      LOG_LEVEL: 'error',
    });
    const exited = collectUntilExit(service, 40_000).catch((error: Error) => ({ code: null, signal: null, stdout: '', stderr: error.message }));
    try {
      expect((await waitForHttp(`${base}/health`, service)).status).toBe(200);
      const created = await fetch(`${base}/api/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          tools: [{ name: 'lookup', description: 'Look up', handler: { type: 'webhook', url: webhooks.url('/lookup') } }],
          customAgents: [{ name: 'keeper', description: 'x', prompt: 'y', tools: ['lookup'] }],
        }),
      });
      expect(created.status).toBe(201);
      const { sessionId } = (await created.json()) as { sessionId: string };
      await fake.emitEvent(sessionId, { type: 'subagent.started', agentId: 'task-1', data: { toolCallId: 'call_1', agentName: 'keeper' } });

      const cases: [string, string][] = [
        [
          'agentId true',
          `{"id":"e-bad-agent","type":"external_tool.requested","agentId":true,"data":{"requestId":"bad-agent","toolName":"lookup","arguments":{}}}`,
        ],
        [
          'arguments nested 20000 deep',
          `{"id":"e-deep","type":"external_tool.requested","agentId":"task-1","data":{"requestId":"deep","toolName":"lookup","arguments":${deeplyNested(DEEP)}}}`,
        ],
      ];
      const problems: string[] = [];
      for (const [name, event] of cases) {
        const requestId = /"requestId":"([^"]+)"/.exec(event)![1];
        if (service.exitCode !== null) break;
        const answered = fake
          .waitFor('session.tools.handlePendingToolCall', (p) => p.requestId === requestId, 3_000)
          .then(
            () => 'answered',
            () => 'not answered',
          );
        await fake.sendRaw(frame(`{"jsonrpc":"2.0","method":"session.event","params":{"sessionId":"${sessionId}","event":${event}}}`));
        const outcome = await Promise.race([answered, exited.then((f) => `process exited (code ${f.code})`)]);
        if (outcome !== 'answered') problems.push(`${name}: ${outcome}`);
      }
      if (service.exitCode !== null) {
        const { stderr, stdout } = await exited;
        const lastWords = `${stderr}\n${stdout}`
          .split('\n')
          .filter((l) => /Error|error/.test(l))
          .slice(0, 3)
          .join('\n')
          .slice(0, 600);
        problems.push(`the service process exited with code ${service.exitCode}:\n${lastWords}`);
      } else {
        expect((await fetch(`${base}/health`)).status).toBe(200);
      }
      expect(problems).toEqual([]);
    } finally {
      if (service.exitCode === null) service.kill('SIGTERM');
      await exited;
      await fake.stop();
      await webhooks.stop();
      tmp.cleanup();
    }
  }, 45_000);
});
