import { InvalidInputError } from '../../../common';
import { decodeRunCursor, encodeRunCursor } from './run-cursor';

describe('run cursors', () => {
  it('round-trip the keyset position', () => {
    const run = { startedAt: '2026-01-02T03:04:05.678Z', runId: '0190a1b2-0000-7000-8000-000000000001' };
    expect(decodeRunCursor(encodeRunCursor(run))).toEqual(run);
  });

  it.each(['', 'not-base64!', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('[1,2]').toString('base64url')])(
    'refuse %p as invalid input',
    (cursor) => {
      expect(() => decodeRunCursor(cursor)).toThrow(InvalidInputError);
    },
  );
});
