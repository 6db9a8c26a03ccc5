import { chunkFrameOf, providerAnswered, startFrameOf } from './model-route';

describe('providerAnswered', () => {
  it('counts an answer as a working provider unless it is a refused key, a rate limit, a server error or a broken answer', () => {
    for (const status of [200, 201, 400, 404, 413, 422]) expect(providerAnswered(status, undefined)).toBe(true);
    for (const status of [401, 403, 429, 500, 502, 503, 504]) expect(providerAnswered(status, undefined)).toBe(false);
    expect(providerAnswered(200, "the model provider's answer broke off: ECONNRESET")).toBe(false);
  });
});

describe('startFrameOf / chunkFrameOf', () => {
  it('keeps the fields Switchboard relies on, header names lowercased and values as lists', () => {
    expect(
      startFrameOf({
        requestId: 'q1',
        url: 'http://x/chat/completions',
        headers: { 'Content-Type': ['application/json'], 'X-Initiator': 'user', Bad: 3 },
        sessionId: 's1',
        agentId: '',
        interactionType: 'conversation-agent',
      }),
    ).toEqual({
      requestId: 'q1',
      url: 'http://x/chat/completions',
      method: 'POST',
      headers: { 'content-type': ['application/json'], 'x-initiator': ['user'] },
      sessionId: 's1',
      interactionType: 'conversation-agent',
    });
    expect(startFrameOf({ url: 'http://x' })).toBeUndefined();
    expect(startFrameOf({ requestId: 'q1' })).toBeUndefined();
  });

  it('reads a chunk, its end and a cancel', () => {
    expect(chunkFrameOf({ requestId: 'q1', data: 'abc', end: true })).toEqual({ requestId: 'q1', data: 'abc', binary: false, end: true, cancel: false });
    expect(chunkFrameOf({ requestId: 'q1', cancel: true, cancelReason: 'user' })).toEqual({
      requestId: 'q1',
      binary: false,
      end: false,
      cancel: true,
      cancelReason: 'user',
    });
    expect(chunkFrameOf({ data: 'x' })).toBeUndefined();
  });
});
