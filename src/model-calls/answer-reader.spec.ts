import { AnswerReader } from './answer-reader';

const SSE = 'text/event-stream; charset=utf-8';

/** The answer as SSE `data:` lines, each event ended by a blank line. */
function sse(...events: Array<object | string>): string {
  return events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
}

/** Reads `text` pushed in pieces of `size` characters (1: every line split across chunks). */
function read(contentType: string | undefined, text: string, size = text.length) {
  const reader = new AnswerReader(contentType);
  for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
  return reader.end();
}

const chatStream = sse(
  { id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
  { id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }] },
  { id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  // stream_options.include_usage: the usage comes in a last chunk without choices.
  {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    choices: [],
    usage: {
      prompt_tokens: 1200,
      completion_tokens: 80,
      total_tokens: 1280,
      prompt_tokens_details: { cached_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 64 },
    },
  },
  '[DONE]',
);
const chatFacts = {
  usage: { inputTokens: 1200, outputTokens: 80, cachedInputTokens: 1024, reasoningTokens: 64 },
  responseId: 'chatcmpl-1',
  finishReason: 'stop',
};

describe('AnswerReader', () => {
  it('reads an OpenAI chat stream: the id, the finish reason, and the usage of its last chunk with cached and reasoning tokens', () => {
    expect(read(SSE, chatStream)).toEqual(chatFacts);
  });

  it('reads the same facts whatever the chunking: lines split across chunks, one character at a time, CRLF line ends', () => {
    for (const size of [1, 7, 50]) expect(read(SSE, chatStream, size)).toEqual(chatFacts);
    expect(read(SSE, chatStream.replace(/\n/g, '\r\n'), 3)).toEqual(chatFacts);
  });

  it('reads a last line that came without its line end', () => {
    const text = chatStream.replace(/data: \[DONE\]\n\n$/, '').trimEnd();
    expect(read(SSE, text, 5)).toEqual(chatFacts);
  });

  it('reads a JSON answer once it ended, however it was chunked', () => {
    const json = JSON.stringify({
      id: 'chatcmpl-2',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
    expect(read('application/json', json, 4)).toEqual({
      usage: { inputTokens: 10, outputTokens: 5 },
      responseId: 'chatcmpl-2',
      finishReason: 'tool_calls',
    });
    // Without a content type an answer is read as JSON too.
    expect(read(undefined, json).responseId).toBe('chatcmpl-2');
  });

  it('gives up on a JSON answer larger than its bound instead of holding it', () => {
    const reader = new AnswerReader('application/json', 20);
    reader.push('{"id":"chatcmpl-3",');
    reader.push('"usage":{"prompt_tokens":1}}');
    expect(reader.end()).toEqual({ usage: {} });
  });

  it('reads the responses API: the completed response holds the id, the status and the usage; in_progress is no end', () => {
    const response = (status: string, usage?: object) => ({ id: 'resp_1', object: 'response', status, ...(usage ? { usage } : {}) });
    const stream =
      `event: response.created\n` +
      sse({ type: 'response.created', response: response('in_progress') }) +
      `event: response.output_text.delta\n` +
      sse({ type: 'response.output_text.delta', item_id: 'msg_1', delta: 'Hi' }) +
      sse({
        type: 'response.completed',
        response: response('completed', {
          input_tokens: 300,
          input_tokens_details: { cached_tokens: 256 },
          output_tokens: 40,
          output_tokens_details: { reasoning_tokens: 12 },
        }),
      });
    expect(read(SSE, stream, 9)).toEqual({
      usage: { inputTokens: 300, outputTokens: 40, cachedInputTokens: 256, reasoningTokens: 12 },
      responseId: 'resp_1',
      finishReason: 'completed',
    });
    // Cut off after the start: no finish reason rather than "in_progress".
    expect(read(SSE, sse({ type: 'response.created', response: response('in_progress') }))).toEqual({ usage: {}, responseId: 'resp_1' });
    expect(read(SSE, sse({ type: 'response.incomplete', response: response('incomplete', { input_tokens: 5, output_tokens: 9 }) }))).toMatchObject({
      finishReason: 'incomplete',
      usage: { inputTokens: 5, outputTokens: 9 },
    });
    // The same answer as JSON (not streamed).
    expect(read('application/json', JSON.stringify(response('completed', { input_tokens: 7, output_tokens: 3 })))).toEqual({
      usage: { inputTokens: 7, outputTokens: 3 },
      responseId: 'resp_1',
      finishReason: 'completed',
    });
  });

  it('reads Anthropic messages: input usage at message_start, output and stop reason at message_delta; cache counts are part of the input', () => {
    const stream =
      'event: message_start\n' +
      sse({
        type: 'message_start',
        message: {
          id: 'msg_01',
          type: 'message',
          stop_reason: null,
          usage: { input_tokens: 20, cache_read_input_tokens: 1000, cache_creation_input_tokens: 200, output_tokens: 1 },
        },
      }) +
      'event: content_block_delta\n' +
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }) +
      'event: message_delta\n' +
      sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 42 } }) +
      'event: message_stop\n' +
      sse({ type: 'message_stop' });
    expect(read(SSE, stream, 11)).toEqual({
      // Anthropic's input_tokens leaves out what was read from or written to the cache: the ledger's input is all of it.
      usage: { inputTokens: 1220, cachedInputTokens: 1000, outputTokens: 42 },
      responseId: 'msg_01',
      finishReason: 'end_turn',
    });
    // A JSON Anthropic answer.
    const json = { id: 'msg_02', type: 'message', stop_reason: 'max_tokens', usage: { input_tokens: 3, output_tokens: 4 } };
    expect(read('application/json', JSON.stringify(json))).toEqual({
      usage: { inputTokens: 3, outputTokens: 4 },
      responseId: 'msg_02',
      finishReason: 'max_tokens',
    });
  });

  it('ignores what it cannot read: garbage lines, broken JSON, comments, non-data fields, negative or non-numeric counts', () => {
    const stream =
      ': keep-alive comment\n' +
      'event: ping\n' +
      'data: {not json\n\n' +
      'data: [1, 2, 3]\n\n' +
      'data: "a string"\n\n' +
      'garbage without a field\n' +
      'data:\n\n' +
      sse({ id: 'chatcmpl-9', choices: [{ finish_reason: 'length' }], usage: { prompt_tokens: -1, completion_tokens: 'many' } }) +
      'data: [DONE]\n\n';
    expect(read(SSE, stream, 4)).toEqual({ usage: {}, responseId: 'chatcmpl-9', finishReason: 'length' });
    expect(read('application/json', '<html>502 Bad Gateway</html>')).toEqual({ usage: {} });
    expect(read(SSE, '')).toEqual({ usage: {} });
  });

  it('keeps the first id of a stream (Azure sends an empty one first, with its content filter results)', () => {
    const stream = sse(
      { id: '', choices: [], prompt_filter_results: [] },
      { id: 'chatcmpl-az', choices: [{ finish_reason: 'stop' }] },
      { id: 'other', choices: [] },
    );
    expect(read(SSE, stream).responseId).toBe('chatcmpl-az');
  });
});
