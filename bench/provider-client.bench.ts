/**
 * What forwarding one model call costs on the wire Switchboard uses, against the scripted model server
 * the tests use (a streamed answer to a 45 KB request, the size of the CLI's first call):
 *
 *   npm run bench:provider-client
 *
 * `ProviderClient` (node http with kept-alive connections, what the model route sends with) against
 * `fetch` (what it sent with first), sequential calls, p50 and p99 of the time to the answer's head and
 * to its end. Nothing is asserted; the figures are printed.
 */
import { MODEL_ROUTE_BASE_URL } from '../src/copilot-cli/cli-protocol';
import { ProviderClient } from '../src/model-calls/provider-client';
import { upstreamRequestOf } from '../src/model-calls/upstream-request';
import { ScriptedModelServer } from '../test/fixtures/scripted-model-server';

const WARMUP = 50;
const CALLS = 500;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

async function main(): Promise<void> {
  const model = await new ScriptedModelServer([{ answer: { text: 'one two three four five six seven eight nine ten' } }]).start();
  const body = JSON.stringify({
    model: 'gpt-4.1',
    stream: true,
    messages: [
      { role: 'system', content: 'x'.repeat(45_000) },
      { role: 'user', content: 'hi' },
    ],
  });
  const upstream = upstreamRequestOf(
    { provider: { type: 'openai', baseUrl: model.baseUrl, apiKey: 'bench' } },
    { url: `${MODEL_ROUTE_BASE_URL}/chat/completions`, method: 'POST', headers: { 'content-type': ['application/json'] } },
  );
  const client = new ProviderClient();
  const viaClient = async (): Promise<[number, number]> => {
    const t0 = performance.now();
    const answer = await client.send(upstream, body, new AbortController().signal);
    const head = performance.now() - t0;
    for await (const chunk of answer.body) void chunk;
    return [head, performance.now() - t0];
  };
  const viaFetch = async (): Promise<[number, number]> => {
    const t0 = performance.now();
    const answer = await fetch(upstream.url, { method: 'POST', headers: upstream.headers, body });
    const head = performance.now() - t0;
    for await (const chunk of answer.body ?? []) void chunk;
    return [head, performance.now() - t0];
  };
  // Alternated rounds, so a noisy moment of the machine falls on both.
  const figures = { ProviderClient: [] as Array<[number, number]>, fetch: [] as Array<[number, number]> };
  for (let i = 0; i < WARMUP; i++) await Promise.all([viaClient(), viaFetch()]);
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < CALLS / 5; i++) figures.ProviderClient.push(await viaClient());
    for (let i = 0; i < CALLS / 5; i++) figures.fetch.push(await viaFetch());
  }
  console.log(`${CALLS} sequential calls each, 45 KB request, streamed answer from the scripted model server`);
  for (const [name, times] of Object.entries(figures)) {
    const heads = times.map((t) => t[0]);
    const ends = times.map((t) => t[1]);
    console.log(
      `  ${name.padEnd(15)} head p50 ${percentile(heads, 0.5).toFixed(2)} ms  p99 ${percentile(heads, 0.99).toFixed(2)} ms   end p50 ${percentile(ends, 0.5).toFixed(2)} ms  p99 ${percentile(ends, 0.99).toFixed(2)} ms`,
    );
  }
  client.close();
  await model.stop();
}

void main();
