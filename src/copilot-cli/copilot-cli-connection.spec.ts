import { malformedSessionEvent } from './copilot-cli-connection';

describe('malformedSessionEvent', () => {
  it('accepts the shapes the CLI sends', () => {
    expect(malformedSessionEvent({ sessionId: 's', event: { type: 'session.idle', data: {} } })).toBeUndefined();
    expect(malformedSessionEvent({ sessionId: 's', event: { type: 'x', agentId: 'task-1', data: { a: 1 } } })).toBeUndefined();
    expect(malformedSessionEvent({ sessionId: 's', event: { type: 'x' } })).toBeUndefined();
  });

  it.each([
    [null, 'params is not an object'],
    [[1, 2], 'sessionId is not a non-empty string'],
    [{ sessionId: 42, event: { type: 'x' } }, 'sessionId is not a non-empty string'],
    [{ sessionId: 's', event: 'x' }, 'event is not an object'],
    [{ sessionId: 's', event: { type: 7 } }, 'event.type is not a non-empty string'],
    [{ sessionId: 's', event: { type: 'x', data: [1] } }, 'event.data is not an object'],
    [{ sessionId: 's', event: { type: 'x', data: null } }, 'event.data is not an object'],
  ])('names what is wrong with %p', (params, problem) => {
    expect(malformedSessionEvent(params)).toBe(problem);
  });
});
