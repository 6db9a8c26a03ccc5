import { createHmac } from 'node:crypto';
import { WebhookRecorder } from '../../test/fixtures/webhook-recorder';
import type { HookSpec } from '../agents';
import { loadConfig } from '../config';
import { OutboundUrlGuard } from '../outbound';
import { HookDispatcher } from './hook-dispatcher';
import { SignedWebhook } from './signed-webhook';

/** The dispatcher against a real HTTP server on 127.0.0.1, with the real signer and outbound guard. */
describe('HookDispatcher (real HTTP)', () => {
  const server = new WebhookRecorder();
  const caller = { sessionId: 's-1', childSessionId: 'c-1', agentName: 'scribe' };
  const input = { toolName: 'save_note', toolArgs: { content: 'a' } };

  beforeAll(async () => {
    await server.start();
    server.answer('/deny', { body: { permissionDecision: 'deny', permissionDecisionReason: 'frozen' } });
    server.answer('/rewrite', { body: { modifiedArgs: { content: 'b' } } });
    server.answer('/echo', (call) => ({ body: { additionalContext: JSON.stringify((call.body.input as { toolArgs: unknown }).toolArgs) } }));
    server.answer('/hang', { body: {}, delayMs: 2_000 });
    server.answer('/teapot', { status: 418, body: {} });
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    server.calls.length = 0;
  });

  const dispatcher = (env: NodeJS.ProcessEnv = {}) => {
    const config = loadConfig(env);
    return new HookDispatcher(new SignedWebhook(config, new OutboundUrlGuard({ allow: config.security.outboundAllow })));
  };
  const hook = (path: string, extra: Partial<HookSpec> = {}): HookSpec => ({ type: 'preToolUse', url: server.url(path), ...extra });

  it('POSTs {hookType, sessionId, childSessionId, agentName, lineage, input}, signed like tool webhooks', async () => {
    await dispatcher({ SWITCHBOARD_WEBHOOK_SECRET: 'shh' }).invoke([hook('/echo')], 'preToolUse', input, caller);
    const [call] = server.calls;
    expect(call.body).toEqual({ hookType: 'preToolUse', sessionId: 's-1', childSessionId: 'c-1', agentName: 'scribe', lineage: null, input });
    expect(call.headers['x-switchboard-signature']).toBe(`sha256=${createHmac('sha256', 'shh').update(call.rawBody).digest('hex')}`);
  });

  it('runs handlers in order: a later one sees the rewritten arguments; a deny ends the chain', async () => {
    const verdict = await dispatcher().invoke([hook('/rewrite'), hook('/echo'), hook('/deny'), hook('/echo')], 'preToolUse', input, caller);
    expect(server.calls.map((c) => c.path)).toEqual(['/rewrite', '/echo', '/deny']);
    expect(verdict.output).toEqual({
      modifiedArgs: { content: 'b' },
      additionalContext: '{"content":"b"}',
      permissionDecision: 'deny',
      permissionDecisionReason: 'frozen',
    });
    expect(verdict).toMatchObject({ outcome: 'denied', reason: 'frozen' });
    expect(verdict.handlers.map((h) => h.outcome)).toEqual(['answered', 'answered', 'answered']);
  });

  it('a pre-tool-use hook that times out fails closed by default: the call is denied, saying why', async () => {
    const verdict = await dispatcher({ SWITCHBOARD_WEBHOOK_TIMEOUT_MS: '200' }).invoke([hook('/hang'), hook('/echo')], 'preToolUse', input, caller);
    const why = "The preToolUse hook's webhook did not answer within 200 ms; it fails closed, so the call was stopped.";
    expect(verdict).toMatchObject({ outcome: 'failed_closed', reason: why, output: { permissionDecision: 'deny', permissionDecisionReason: why } });
    expect(verdict.handlers).toEqual([expect.objectContaining({ failure: 'closed', outcome: 'failed', error: 'did not answer within 200 ms' })]);
    expect(server.calls.map((c) => c.path)).toEqual(['/hang']);
  });

  it('failure: open lets the call through and goes on to the next handler', async () => {
    const verdict = await dispatcher().invoke([hook('/teapot', { failure: 'open' }), hook('/rewrite')], 'preToolUse', input, caller);
    expect(verdict).toMatchObject({ outcome: 'modified', output: { modifiedArgs: { content: 'b' } } });
    expect(verdict.handlers.map((h) => [h.outcome, h.error])).toEqual([
      ['failed', 'answered HTTP 418'],
      ['answered', undefined],
    ]);
  });

  it('other hook types fail open by default; closed, a type with nothing to deny stops with an error', async () => {
    const open = await dispatcher().invoke([hook('/teapot', { type: 'sessionStart' })], 'sessionStart', {}, caller);
    expect(open).toMatchObject({ outcome: 'failed_open', output: {} });
    expect(open.stop).toBeUndefined();
    const closed = await dispatcher().invoke([hook('/teapot', { type: 'sessionStart', failure: 'closed' })], 'sessionStart', {}, caller);
    expect(closed).toMatchObject({ outcome: 'failed_closed', stop: expect.stringContaining('answered HTTP 418') });
  });

  it('a URL the outbound guard refuses at call time is a failure, and nothing is sent', async () => {
    const verdict = await dispatcher().invoke([{ type: 'preToolUse', url: 'http://169.254.169.254/latest' }], 'preToolUse', input, caller);
    expect(verdict).toMatchObject({ outcome: 'failed_closed', output: { permissionDecision: 'deny' } });
    expect(verdict.handlers[0].error).toContain('refused by the outbound guard');
    expect(server.calls).toHaveLength(0);
  });
});
