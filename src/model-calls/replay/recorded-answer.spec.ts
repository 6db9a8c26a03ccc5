import { ModelCallEvents } from '../model-call.events';
import { recordedAnswerFrames, sseEventsOf } from './recorded-answer';
import { recordedExchangeOf, divergenceMessage } from './replay-planner';

const SSE = 'data: {"choices":[{"delta":{"role":"assistant"}}]}\n\ndata: {"choices":[{"delta":{"content":"OK"}}]}\n\ndata: [DONE]\n\n';

describe('a recorded answer played back', () => {
  it('goes back as a stream of server-sent events, one event per chunk, for a streamed request', () => {
    const frames = recordedAnswerFrames({ callId: 'c', stream: true, status: 200, answer: SSE, usage: {} });
    expect(frames.status).toBe(200);
    expect(frames.headers).toEqual({ 'content-type': ['text/event-stream'] });
    expect(frames.chunks).toHaveLength(3);
    expect(frames.chunks.join('')).toBe(SSE);
  });

  it('goes back whole as JSON for a request that did not stream', () => {
    const frames = recordedAnswerFrames({ callId: 'c', stream: false, status: 200, answer: '{"id":"x"}', usage: {} });
    expect(frames).toEqual({ status: 200, headers: { 'content-type': ['application/json'] }, chunks: ['{"id":"x"}'] });
  });

  it('keeps a trailing piece without a blank line, and CRLF boundaries', () => {
    expect(sseEventsOf('data: a\r\n\r\ndata: b')).toEqual(['data: a\r\n\r\n', 'data: b']);
    expect(sseEventsOf('')).toEqual([]);
  });
});

describe('recordedExchangeOf', () => {
  const started = (data: Record<string, unknown>) => ({ type: ModelCallEvents.started, data: { stream: true, ...data } });
  const finished = (data: Record<string, unknown>) => ({ type: ModelCallEvents.finished, data: { status: 200, usage: { inputTokens: 3 }, ...data } });

  it('reads the request, the answer, its status, usage and ids off the call’s stream', () => {
    expect(recordedExchangeOf('c', [started({ request: 'REQ' }), finished({ answer: SSE, responseId: 'chatcmpl-1', finishReason: 'stop' })])).toEqual({
      callId: 'c',
      stream: true,
      status: 200,
      request: 'REQ',
      answer: SSE,
      usage: { inputTokens: 3 },
      responseId: 'chatcmpl-1',
      finishReason: 'stop',
    });
  });

  it('has no request or answer to play back when they were not kept, or kept cut', () => {
    const cut = recordedExchangeOf('c', [started({ request: 'REQ', requestTruncated: true }), finished({ answer: 'A', answerTruncated: true })]);
    expect(cut.request).toBeUndefined();
    expect(cut.answer).toBeUndefined();
    expect(recordedExchangeOf('c', [started({}), finished({})]).answer).toBeUndefined();
  });
});

describe('divergenceMessage', () => {
  it('says where the replay stopped, what differs and how to go on', () => {
    expect(divergenceMessage('lead', 2, { part: 'system', at: 'character 12' })).toBe(
      'the replay stopped at call 2 of agent lead: it differs from the original\'s in its system prompt (at character 12); on_divergence "live" goes on with the model from there',
    );
    expect(divergenceMessage('checker', 3, { part: 'missing', at: 'call 3 of checker' })).toContain('has no recorded answer to play back');
  });
});
