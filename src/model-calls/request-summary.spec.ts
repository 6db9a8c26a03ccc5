import { requestFactsOf, withOutputCap } from './request-summary';

const body = (value: object) => JSON.stringify(value);

describe('requestFactsOf', () => {
  it('reads the model, message and tool counts, streaming and the output cap of a chat completions request', () => {
    expect(
      requestFactsOf(
        body({
          model: 'gpt-4.1',
          messages: [{ role: 'system' }, { role: 'user' }, { role: 'assistant' }],
          tools: [{ type: 'function' }, { type: 'function' }],
          stream: true,
          max_completion_tokens: 4096,
        }),
      ),
    ).toEqual({ model: 'gpt-4.1', messageCount: 3, toolCount: 2, stream: true, maxOutputTokens: 4096 });
  });

  it('reads each shape’s cap field, and a responses request’s input as its messages (a string input is one)', () => {
    expect(requestFactsOf(body({ model: 'm', messages: [], max_tokens: 100 })).maxOutputTokens).toBe(100);
    expect(requestFactsOf(body({ model: 'o4', input: [{}, {}], max_output_tokens: 50 }))).toEqual({
      model: 'o4',
      messageCount: 2,
      toolCount: 0,
      stream: false,
      maxOutputTokens: 50,
    });
    expect(requestFactsOf(body({ model: 'o4', input: 'Say hi' })).messageCount).toBe(1);
  });

  it('says unknown for a body that is not a JSON object, and reads no stream from a non-boolean', () => {
    const unknown = { model: 'unknown', messageCount: 0, toolCount: 0, stream: false };
    expect(requestFactsOf('not json')).toEqual(unknown);
    expect(requestFactsOf('[1,2]')).toEqual(unknown);
    expect(requestFactsOf('')).toEqual(unknown);
    expect(requestFactsOf(body({ model: 42, stream: 'yes', messages: 'many' }))).toEqual(unknown);
  });
});

describe('withOutputCap', () => {
  const capOf = (capped: string | undefined) => JSON.parse(capped as string) as Record<string, unknown>;

  it('adds the cap in the field each shape reads when the request has none', () => {
    const chat = body({ model: 'gpt-5', messages: [] });
    // OpenAI's and Azure's reasoning models refuse max_tokens: max_completion_tokens works on every chat model.
    expect(capOf(withOutputCap(chat, 500, 'openai', '/chat/completions'))).toEqual({ model: 'gpt-5', messages: [], max_completion_tokens: 500 });
    expect(capOf(withOutputCap(chat, 500, 'azure', '/openai/deployments/d/chat/completions')).max_completion_tokens).toBe(500);
    expect(capOf(withOutputCap(chat, 500, 'capi', '/chat/completions')).max_tokens).toBe(500);
    expect(capOf(withOutputCap(body({ model: 'claude', messages: [] }), 500, 'anthropic', '/v1/messages')).max_tokens).toBe(500);
    expect(capOf(withOutputCap(body({ model: 'o4', input: 'x' }), 500, 'openai', '/responses')).max_output_tokens).toBe(500);
  });

  it('lowers the field the request already uses, whatever the shape', () => {
    const capped = capOf(withOutputCap(body({ model: 'm', max_tokens: 8192, messages: [] }), 300, 'openai', '/chat/completions'));
    expect(capped).toEqual({ model: 'm', max_tokens: 300, messages: [] });
    expect(capOf(withOutputCap(body({ max_output_tokens: 9000 }), 10, 'openai', '/responses'))).toEqual({ max_output_tokens: 10 });
  });

  it('leaves a request alone that already asks for no more than the cap (the very same body)', () => {
    const lower = body({ model: 'm', max_completion_tokens: 100, messages: [] });
    expect(withOutputCap(lower, 300, 'openai', '/chat/completions')).toBe(lower);
    expect(withOutputCap(lower, 100, 'openai', '/chat/completions')).toBe(lower);
  });

  it('caps at a whole token, at least one', () => {
    expect(capOf(withOutputCap(body({}), 12.7, 'anthropic', '/v1/messages')).max_tokens).toBe(12);
    expect(capOf(withOutputCap(body({}), 0.4, 'anthropic', '/v1/messages')).max_tokens).toBe(1);
  });

  it('is undefined for a body that is not a JSON object', () => {
    expect(withOutputCap('not json', 10, 'openai', '/chat/completions')).toBeUndefined();
    expect(withOutputCap('[]', 10, 'openai', '/chat/completions')).toBeUndefined();
  });
});
