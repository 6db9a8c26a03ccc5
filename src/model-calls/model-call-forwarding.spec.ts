import { providerAnswered } from './model-call-forwarding';

describe('providerAnswered', () => {
  it('counts an answer as a working provider unless it is a refused key, a rate limit, a server error or a broken answer', () => {
    for (const status of [200, 201, 400, 404, 413, 422]) expect(providerAnswered(status, undefined)).toBe(true);
    for (const status of [401, 403, 429, 500, 502, 503, 504]) expect(providerAnswered(status, undefined)).toBe(false);
    expect(providerAnswered(200, "the model provider's answer broke off: ECONNRESET")).toBe(false);
  });
});
