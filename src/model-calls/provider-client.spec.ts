import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderClient } from './provider-client';

describe('ProviderClient', () => {
  let server: http.Server;
  let url: string;
  const seen: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  /** Ends the streamed answer: called once the client has the first chunk, so the two cannot arrive as one read. */
  let endAnswer: (() => void) | undefined;
  const client = new ProviderClient();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        if (req.url === '/hang') return; // never answers: only an abort ends it
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"a":1}\n\n');
        endAnswer = () => {
          endAnswer = undefined;
          res.end('data: [DONE]\n\n');
        };
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the body with its length, asks for it unencoded, and gives the answer chunk by chunk as it comes', async () => {
    const answer = await client.send(
      {
        url: `${url}/v1/chat/completions`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
        provider: 'openai',
      },
      '{"model":"m"}',
      new AbortController().signal,
    );
    expect(answer).toMatchObject({ status: 200, contentType: 'text/event-stream' });
    const chunks: string[] = [];
    // The rest is sent only once the first chunk is here: a client that buffered the whole answer would wait forever.
    for await (const chunk of answer.body) {
      chunks.push(chunk.toString());
      endAnswer?.();
    }
    expect(chunks).toEqual(['data: {"a":1}\n\n', 'data: [DONE]\n\n']);
    expect(seen.at(-1)).toMatchObject({ body: '{"model":"m"}', headers: { 'content-length': '13', 'accept-encoding': 'identity' } });
  });

  it('drops the upstream request when the call is aborted', async () => {
    const abort = new AbortController();
    const sent = client.send({ url: `${url}/hang`, method: 'POST', headers: {}, provider: 'openai' }, '{}', abort.signal);
    setTimeout(() => abort.abort(new Error('the Copilot CLI cancelled the call')), 50);
    await expect(sent).rejects.toThrow();
  });

  it('fails with the socket error when the provider cannot be reached', async () => {
    await expect(
      client.send({ url: 'http://127.0.0.1:9/v1/chat/completions', method: 'POST', headers: {}, provider: 'openai' }, '{}', new AbortController().signal),
    ).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });
});
