import { readableAnswer, readableRequest } from './model-call-content';

const sse = (...events: unknown[]) => events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');

describe('a model call request read as messages', () => {
  it('reads a chat completions request: roles, text parts, tool calls, tool results and the tools offered', () => {
    const body = JSON.stringify({
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'You are the lead.' },
        { role: 'user', content: [{ type: 'text', text: 'List the files' }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'a.ts\nb.ts' },
      ],
      tools: [
        { type: 'function', function: { name: 'bash' } },
        { type: 'function', function: { name: 'view' } },
      ],
    });
    expect(readableRequest(body)).toEqual({
      messages: [
        { role: 'system', text: 'You are the lead.', toolCalls: [] },
        { role: 'user', text: 'List the files', toolCalls: [] },
        { role: 'assistant', text: '', toolCalls: [{ name: 'bash', arguments: '{"command":"ls"}' }] },
        { role: 'tool', text: 'a.ts\nb.ts', toolCalls: [], toolCallId: 'c1' },
      ],
      tools: ['bash', 'view'],
    });
  });

  it('reads an Anthropic messages request: the system prompt beside the messages, tool_use and tool_result parts', () => {
    const body = JSON.stringify({
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'view', input: { path: 'a.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'export {}' }] }] },
      ],
      tools: [{ name: 'view', input_schema: {} }],
    });
    expect(readableRequest(body)).toEqual({
      messages: [
        { role: 'system', text: 'Be brief.', toolCalls: [] },
        { role: 'user', text: 'Hi', toolCalls: [] },
        { role: 'assistant', text: '', toolCalls: [{ name: 'view', arguments: '{"path":"a.ts"}' }] },
        { role: 'tool', text: 'export {}', toolCalls: [], toolCallId: 't1' },
      ],
      tools: ['view'],
    });
  });

  it('reads an OpenAI responses request: instructions, input items, function calls and their outputs', () => {
    const body = JSON.stringify({
      instructions: 'Answer in French.',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Bonjour' }] },
        { type: 'reasoning', summary: [] },
        { type: 'function_call', call_id: 'f1', name: 'grep', arguments: '{"q":"x"}' },
        { type: 'function_call_output', call_id: 'f1', output: 'no match' },
      ],
      tools: [{ type: 'function', name: 'grep' }],
    });
    expect(readableRequest(body)).toEqual({
      messages: [
        { role: 'system', text: 'Answer in French.', toolCalls: [] },
        { role: 'user', text: 'Bonjour', toolCalls: [] },
        { role: 'assistant', text: '', toolCalls: [{ name: 'grep', arguments: '{"q":"x"}' }] },
        { role: 'tool', text: 'no match', toolCalls: [], toolCallId: 'f1' },
      ],
      tools: ['grep'],
    });
    expect(readableRequest(JSON.stringify({ input: 'just a string' }))?.messages).toEqual([{ role: 'user', text: 'just a string', toolCalls: [] }]);
  });

  it('gives up on a body cut short, another shape or nothing (the view then shows the raw text)', () => {
    expect(readableRequest('{"messages": [{"role": "user", "content": "cut he')).toBeUndefined();
    expect(readableRequest(JSON.stringify({ prompt: 'legacy completions' }))).toBeUndefined();
    expect(readableRequest(null)).toBeUndefined();
    expect(readableRequest('')).toBeUndefined();
  });
});

describe('a model call answer read as text', () => {
  it('joins the text deltas of a streamed chat completion and assembles its tool calls from their pieces', () => {
    const body = sse(
      { choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' } }] },
      { choices: [{ index: 0, delta: { content: 'lo' } }] },
      { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'bash', arguments: '{"comm' } }] } }] },
      { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'and":"ls"}' } }] } }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 5 } },
      '[DONE]',
    );
    expect(readableAnswer(body)).toEqual({ text: 'Hello', toolCalls: [{ name: 'bash', arguments: '{"command":"ls"}' }] });
  });

  it('reads a chat completion that did not stream', () => {
    const body = JSON.stringify({
      choices: [{ index: 0, message: { role: 'assistant', content: 'Done.', tool_calls: [{ function: { name: 'view', arguments: '{}' } }] } }],
    });
    expect(readableAnswer(body)).toEqual({ text: 'Done.', toolCalls: [{ name: 'view', arguments: '{}' }] });
  });

  it('reads Anthropic streams (text and tool input by content block) and whole messages', () => {
    const stream = sse(
      { type: 'message_start', message: { id: 'msg_1' } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Looking' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't1', name: 'view', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"path":' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"a.ts"}' } },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' } },
    );
    expect(readableAnswer(stream)).toEqual({ text: 'Looking', toolCalls: [{ name: 'view', arguments: '{"path":"a.ts"}' }] });
    const whole = JSON.stringify({
      content: [
        { type: 'text', text: 'Hi' },
        { type: 'tool_use', name: 'bash', input: { command: 'ls' } },
      ],
    });
    expect(readableAnswer(whole)).toEqual({ text: 'Hi', toolCalls: [{ name: 'bash', arguments: '{"command":"ls"}' }] });
  });

  it('reads OpenAI responses streams and whole responses', () => {
    const stream = sse(
      { type: 'response.created', response: { id: 'resp_1' } },
      { type: 'response.output_text.delta', delta: 'Bon' },
      { type: 'response.output_text.delta', delta: 'jour' },
      { type: 'response.output_item.done', item: { type: 'function_call', name: 'grep', arguments: '{"q":"x"}' } },
      { type: 'response.completed', response: { id: 'resp_1', output: [{ type: 'message', content: [{ type: 'output_text', text: 'Bonjour' }] }] } },
    );
    expect(readableAnswer(stream)).toEqual({ text: 'Bonjour', toolCalls: [{ name: 'grep', arguments: '{"q":"x"}' }] });
    const whole = JSON.stringify({ output: [{ type: 'message', content: [{ type: 'output_text', text: 'Salut' }] }] });
    expect(readableAnswer(whole)).toEqual({ text: 'Salut', toolCalls: [] });
  });

  it('keeps what a truncated stream had before the cut, and gives up on what is not an answer', () => {
    const cut = sse({ choices: [{ index: 0, delta: { content: 'partial' } }] }) + 'data: {"choices": [{"delta": {"content": "lo';
    expect(readableAnswer(cut)).toEqual({ text: 'partial', toolCalls: [] });
    expect(readableAnswer('<html>Bad gateway</html>')).toBeUndefined();
    expect(readableAnswer('{"error": {"message": "rate limited"}}')).toBeUndefined();
    expect(readableAnswer(undefined)).toBeUndefined();
  });
});
