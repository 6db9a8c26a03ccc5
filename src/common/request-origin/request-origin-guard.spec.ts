import { Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { RefusalLog } from './request-origin-guard';
import type { RequestRefusal } from './request-origin-rules';

const refusal: RequestRefusal = { statusCode: 403, code: 'cross_origin_refused', message: 'refused' };
const request = { method: 'GET', url: '/api/sessions?x=1', headers: { host: '127.0.0.1:3000', origin: 'http://evil.test' } } as unknown as IncomingMessage;

describe('RefusalLog', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('logs each refusal of a burst with what was asked, then counts the rest and sums them up once the window turns', () => {
    let now = 1_000_000;
    const log = new RefusalLog(3, 60_000, () => now);
    for (let i = 0; i < 10; i++) log.record(request, refusal);
    expect(warn).toHaveBeenCalledTimes(3);
    expect(warn.mock.calls[0][0]).toMatchObject({ statusCode: 403, code: 'cross_origin_refused', path: '/api/sessions', origin: 'http://evil.test' });
    expect(log.suppressedInWindow).toBe(7);

    now += 60_000;
    log.record(request, refusal);
    expect(warn).toHaveBeenCalledTimes(5);
    expect(warn.mock.calls[3][0]).toEqual({ suppressed: 7, windowMs: 60_000 });
    expect(warn.mock.calls[4][1]).toBe('request refused before routing');
    expect(log.suppressedInWindow).toBe(0);
  });
});
