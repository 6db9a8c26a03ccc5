import { withProviderAddress } from './cli-provider-address';

describe('withProviderAddress', () => {
  it("names the configured provider where the CLI's error names the model route's placeholder", () => {
    const payload = {
      errorType: 'connection',
      message: 'Could not connect to provider at http://model-route.switchboard.invalid',
      stack: ['at http://model-route.switchboard.invalid/chat/completions'],
    };
    expect(withProviderAddress(payload, 'https://api.example.com/v1/')).toEqual({
      errorType: 'connection',
      message: 'Could not connect to provider at https://api.example.com/v1',
      stack: ['at https://api.example.com/v1/chat/completions'],
    });
    expect(withProviderAddress({ message: 'host model-route.switchboard.invalid is down' }, undefined)).toEqual({
      message: 'host the model provider is down',
    });
  });

  it('leaves text without the placeholder alone', () => {
    const payload = { message: 'Rate limited', statusCode: 429, nested: { ok: true } };
    expect(withProviderAddress(payload, 'https://api.example.com/v1')).toEqual(payload);
  });
});
