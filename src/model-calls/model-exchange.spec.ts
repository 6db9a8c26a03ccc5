import { chunkFrameOf, Exchange, startFrameOf } from './model-exchange';

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

describe('Exchange', () => {
  it('aborts its upstream request once, keeping the first reason', () => {
    const exchange = new Exchange('q1');
    exchange.abortBecause('the Copilot CLI cancelled the call');
    exchange.abortBecause('Switchboard is stopping');
    expect(exchange.abort.signal.aborted).toBe(true);
    expect(exchange.abortedBecause).toBe('the Copilot CLI cancelled the call');
  });
});
