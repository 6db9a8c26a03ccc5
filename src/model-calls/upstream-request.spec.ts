import { MODEL_ROUTE_BASE_URL } from '../copilot-cli';
import { pathForLedger, upstreamRequestOf } from './upstream-request';

const asked = (headers: Record<string, string[]> = {}) => ({
  url: `${MODEL_ROUTE_BASE_URL}/chat/completions`,
  method: 'POST',
  headers: { 'content-type': ['application/json'], host: ['model-route.switchboard.invalid'], 'content-length': ['12'], ...headers },
});

describe('upstreamRequestOf', () => {
  it('sends an OpenAI-compatible call to the provider with Switchboard’s key as a bearer token, never the CLI’s', () => {
    const up = upstreamRequestOf(
      { provider: { type: 'openai', baseUrl: 'http://127.0.0.1:9/v1/', apiKey: 'sk-real' } },
      asked({ authorization: ['Bearer placeholder'] }),
    );
    expect(up).toEqual({
      url: 'http://127.0.0.1:9/v1/chat/completions',
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-real' },
      provider: 'openai',
    });
  });

  it('puts the key in the header each provider shape reads', () => {
    const azure = upstreamRequestOf(
      { provider: { type: 'azure', baseUrl: 'https://x.openai.azure.com', apiKey: 'az' } },
      {
        ...asked(),
        url: `${MODEL_ROUTE_BASE_URL}/openai/deployments/d/chat/completions?api-version=2024-10-21`,
      },
    );
    expect(azure.url).toBe('https://x.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21');
    expect(azure.headers['api-key']).toBe('az');
    expect(azure.headers.authorization).toBeUndefined();
    const anthropic = upstreamRequestOf(
      { provider: { type: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'an' } },
      { ...asked(), url: `${MODEL_ROUTE_BASE_URL}/v1/messages` },
    );
    expect(anthropic).toMatchObject({ url: 'https://api.anthropic.com/v1/messages', provider: 'anthropic' });
    expect(anthropic.headers['x-api-key']).toBe('an');
  });

  it('without a configured provider sends the call where the CLI asked, with the CLI’s own credentials (CAPI)', () => {
    const up = upstreamRequestOf(
      { provider: undefined },
      { url: 'https://api.githubcopilot.com/chat/completions', method: 'POST', headers: { authorization: ['Bearer gho'] } },
    );
    expect(up).toEqual({
      url: 'https://api.githubcopilot.com/chat/completions',
      method: 'POST',
      headers: { authorization: 'Bearer gho' },
      provider: 'capi',
    });
  });

  it('records the path without host or query', () => {
    expect(pathForLedger(`${MODEL_ROUTE_BASE_URL}/chat/completions?x=1`)).toBe('/chat/completions');
    expect(pathForLedger('https://api.githubcopilot.com/models')).toBe('/models');
  });
});
