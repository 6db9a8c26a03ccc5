import type { ToolResult } from '../copilot-cli';
import { BuiltinToolCatalog, type ToolInvocation, type ToolSpec } from '../sessions';
import { ToolInvoker } from './tool-invoker';
import type { WebhookToolHandler } from './webhook-tool-handler';

const invocation: ToolInvocation = {
  sessionId: 'session-1',
  childSessionId: 'child-1',
  agentName: 'reviewer',
  toolCallId: 'call-1',
  toolName: 'save_result',
  arguments: { content: 'hi' },
};

const webhookTool: ToolSpec = {
  name: 'save_result',
  description: 'Saves a result',
  parameters: { type: 'object', properties: {} },
  handler: { type: 'webhook', url: 'http://127.0.0.1:4000/save' },
};

const builtinTool = (handlerName: string, name = 'delegate'): ToolSpec => ({
  name,
  description: 'A built-in',
  parameters: { type: 'object', properties: {} },
  handler: { type: 'builtin', name: handlerName },
});

function setup() {
  const call = jest.fn<Promise<ToolResult>, [string, ToolInvocation]>();
  // A stand-in for the one method the invoker calls (the real handler is tested over HTTP in its own spec).
  const webhooks = { call } as unknown as WebhookToolHandler;
  const builtins = new BuiltinToolCatalog();
  return { invoker: new ToolInvoker(webhooks, builtins), call, builtins };
}

describe('ToolInvoker', () => {
  describe('dispatch', () => {
    it("sends a webhook tool to its URL with the invocation and returns the webhook's result", async () => {
      const { invoker, call, builtins } = setup();
      const builtin = jest.fn();
      builtins.register('save_result', builtin);
      const answer: ToolResult = { textResultForLlm: 'saved', resultType: 'success' };
      call.mockResolvedValue(answer);

      const result = await invoker.invoke(webhookTool, invocation);

      expect(result).toBe(answer);
      expect(call).toHaveBeenCalledTimes(1);
      expect(call).toHaveBeenCalledWith('http://127.0.0.1:4000/save', invocation);
      expect(builtin).not.toHaveBeenCalled();
    });

    it('passes a webhook failure result through unchanged', async () => {
      const { invoker, call } = setup();
      const failed: ToolResult = { textResultForLlm: 'HTTP 500', resultType: 'failure', error: 'HTTP 500 boom' };
      call.mockResolvedValue(failed);
      expect(await invoker.invoke(webhookTool, invocation)).toEqual(failed);
    });

    it('runs a builtin tool by its handler name (not the tool name) with the invocation', async () => {
      const { invoker, call, builtins } = setup();
      const impl = jest.fn().mockResolvedValue('done');
      const other = jest.fn().mockResolvedValue('wrong one');
      builtins.register('delegate_impl', impl);
      builtins.register('delegate', other);

      const result = await invoker.invoke(builtinTool('delegate_impl', 'delegate'), invocation);

      expect(result).toEqual({ textResultForLlm: 'done', resultType: 'success' });
      expect(impl).toHaveBeenCalledWith(invocation);
      expect(other).not.toHaveBeenCalled();
      expect(call).not.toHaveBeenCalled();
    });

    it('gives a failure result when the built-in handler is not registered', async () => {
      const { invoker } = setup();
      const text = 'Tool delegate failed: built-in handler missing_impl is not available.';
      expect(await invoker.invoke(builtinTool('missing_impl'), invocation)).toEqual({
        textResultForLlm: text,
        resultType: 'failure',
        error: text,
      });
    });
  });

  describe('builtin results', () => {
    it('a string becomes success text', async () => {
      const { invoker, builtins } = setup();
      builtins.register('impl', async () => 'plain answer');
      expect(await invoker.invoke(builtinTool('impl'), invocation)).toEqual({ textResultForLlm: 'plain answer', resultType: 'success' });
    });

    it('an object becomes its JSON text', async () => {
      const { invoker, builtins } = setup();
      builtins.register('impl', async () => ({ rows: [1, 2], ok: true }));
      expect(await invoker.invoke(builtinTool('impl'), invocation)).toEqual({
        textResultForLlm: '{"rows":[1,2],"ok":true}',
        resultType: 'success',
      });
    });

    it('an object whose textResultForLlm is not a string is treated as plain data', async () => {
      const { invoker, builtins } = setup();
      builtins.register('impl', async () => ({ textResultForLlm: 3, resultType: 'failure' }));
      expect(await invoker.invoke(builtinTool('impl'), invocation)).toEqual({
        textResultForLlm: '{"textResultForLlm":3,"resultType":"failure"}',
        resultType: 'success',
      });
    });

    it.each<ToolResult>([
      { textResultForLlm: 'all good', resultType: 'success' },
      { textResultForLlm: 'nope', resultType: 'denied', error: 'not yours' },
      { textResultForLlm: 'broke', resultType: 'failure', error: 'e', toolTelemetry: { ms: 5 } },
    ])('a ToolResult is returned as is ($resultType)', async (toolResult) => {
      const { invoker, builtins } = setup();
      builtins.register('impl', async () => toolResult);
      expect(await invoker.invoke(builtinTool('impl'), invocation)).toEqual(toolResult);
    });

    it('a builtin that rejects gives a failure result carrying its message', async () => {
      const { invoker, builtins } = setup();
      builtins.register('impl', async () => {
        throw new Error('upstream unavailable');
      });
      const text = 'Tool delegate failed: upstream unavailable';
      expect(await invoker.invoke(builtinTool('impl'), invocation)).toEqual({ textResultForLlm: text, resultType: 'failure', error: text });
    });

    it('a builtin that throws synchronously gives a failure result too', async () => {
      const { invoker, builtins } = setup();
      builtins.register('impl', () => {
        throw new TypeError('bad arguments');
      });
      const result = await invoker.invoke(builtinTool('impl'), invocation);
      expect(result).toEqual({
        textResultForLlm: 'Tool delegate failed: bad arguments',
        resultType: 'failure',
        error: 'Tool delegate failed: bad arguments',
      });
    });
  });
});
