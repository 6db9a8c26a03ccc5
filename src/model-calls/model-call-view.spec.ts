import { InvalidInputError } from '../common';
import type { StoredEvent } from '../event-store';
import { decodeModelCallCursor, encodeModelCallCursor, modelCallBodiesOf, modelCallPageOf } from './model-call-view';
import { ModelCallEvents } from './model-call.events';
import { modelCallRow } from '../../test/fixtures/model-call-rows';

const row = (callId: string, startedPosition: number) => modelCallRow({ callId, startedPosition });

const event = (type: string, data: Record<string, unknown>): StoredEvent => ({
  globalPosition: 1,
  eventId: 'e',
  streamId: 'model_call-c',
  streamPosition: 1,
  type,
  data,
  metadata: {},
  recordedAt: 't0',
});

describe('model call views', () => {
  it('round-trip a started position through the opaque cursor, up to positions past 2^31', () => {
    for (const position of [1, 42, 2 ** 40]) expect(decodeModelCallCursor(encodeModelCallCursor(position))).toBe(position);
  });

  it.each(['', 'not-a-cursor', Buffer.from('0').toString('base64url'), Buffer.from('-3').toString('base64url'), Buffer.from('1.5').toString('base64url')])(
    'refuse %p as a cursor with a message naming after',
    (cursor) => {
      expect(() => decodeModelCallCursor(cursor)).toThrow(InvalidInputError);
      expect(() => decodeModelCallCursor(cursor)).toThrow(/after: .* nextCursor/);
    },
  );

  it('give a cursor only when a row past the limit was read, pointing at the last row shown', () => {
    const more = modelCallPageOf([row('a', 3), row('b', 9), row('c', 12)], 2);
    expect(more.calls.map((c) => c.callId)).toEqual(['a', 'b']);
    expect(decodeModelCallCursor(more.nextCursor!)).toBe(9);
    expect(modelCallPageOf([row('a', 3), row('b', 9)], 2).nextCursor).toBeNull();
    // The router's bookkeeping stays inside; the lineage path is a list.
    expect(more.calls[0].lineagePath).toEqual(['lead', 'researcher']);
    for (const hidden of ['startedPosition', 'cliAgentId', 'agentInvocationId', 'runPath', 'instanceId']) expect(more.calls[0]).not.toHaveProperty(hidden);
  });

  it('take the request from the start and the answer from the end, whether the call finished or failed', () => {
    const started = event(ModelCallEvents.started, { callId: 'c', request: 'REQ', requestTruncated: true });
    expect(modelCallBodiesOf([started, event(ModelCallEvents.failed, { callId: 'c', answer: 'ERR_BODY' })])).toEqual({
      request: 'REQ',
      answer: 'ERR_BODY',
      requestTruncated: true,
      answerTruncated: false,
    });
    expect(
      modelCallBodiesOf([
        event(ModelCallEvents.started, { callId: 'c' }),
        event(ModelCallEvents.finished, { callId: 'c', answerTruncated: true, answer: 'A' }),
      ]),
    ).toEqual({
      request: null,
      answer: 'A',
      requestTruncated: false,
      answerTruncated: true,
    });
  });
});
