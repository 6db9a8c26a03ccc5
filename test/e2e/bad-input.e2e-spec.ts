import { Logger } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import { gzipSync } from 'node:zlib';
import WebSocket from 'ws';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { graphqlHttp, GraphqlSubscription } from '../fixtures/graphql-client';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { rawHttp } from '../fixtures/raw-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';

const TOKEN = 'bad-input-e2e-token-0123456789';

/** `depth` objects nested under key `a`, the innermost a JSON schema leaf. */
function nested(depth: number): Json {
  let value: Json = { type: 'string' };
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

/** The same as JSON text, built without recursion: a value this deep overflows JSON.stringify (the original 500). */
const nestedText = (depth: number) => `${'{"a":'.repeat(depth - 1)}{"type":"string"}${'}'.repeat(depth - 1)}`;

const tool = (parameters: unknown) => ({ name: 'lookup', description: 'd', parameters, handler: { type: 'webhook', url: 'http://127.0.0.1:9/hook' } });

/** Reproductions of issue 10 §3 over real HTTP and WebSocket: each was a 500, a hang or a silent surprise. */
describe('bad input is a clear 4xx, never a 500 or a hang', () => {
  let running: RunningApp;
  const rest = jsonHttp(() => running.baseUrl, { authorization: `Bearer ${TOKEN}` });
  const gql = graphqlHttp(() => running.baseUrl, TOKEN);
  /** POSTs raw bytes with the given headers, no token: these refusals come before auth. */
  const post = async (path: string, body: Buffer | string, headers: Record<string, string>) => {
    const response = await fetch(`${running.baseUrl}${path}`, { method: 'POST', headers, body });
    const text = await response.text();
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: JSON.parse(text) };
  };
  const ws = (authorization: string) =>
    createClient({
      url: `${running.baseUrl.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: authorization },
      retryAttempts: 0,
      lazy: true,
    });

  beforeAll(async () => {
    running = await startTestApp({ apiToken: TOKEN });
  });
  afterAll(() => running?.close());
  afterEach(() => jest.restoreAllMocks());

  describe('body-parser refusals, on every path, before auth', () => {
    const paths = ['/health', '/no/such/route', '/api/sessions', '/graphql'];
    const json = { 'content-type': 'application/json' };

    it.each(paths)('%s: a body over 1 MB is 413, an unknown charset 415, a bad or undecodable content-encoding 400, malformed JSON 400', async (path) => {
      const warned = jest.spyOn(Logger.prototype, 'warn');
      const failed = jest.spyOn(Logger.prototype, 'error');

      const big = await post(path, JSON.stringify({ prompt: 'x'.repeat(1_100_000) }), json);
      expect(big).toMatchObject({ status: 413, body: { statusCode: 413, code: 'payload_too_large' } });
      expect(big.body.message).toMatch(/at most 1048576 bytes are accepted: send a smaller body/);

      const charset = await post(path, '{}', { 'content-type': 'application/json; charset=foo' });
      expect(charset).toMatchObject({ status: 415, body: { statusCode: 415, code: 'unsupported_media_type' } });
      expect(charset.body.message).toMatch(/Unsupported charset "foo": send JSON as UTF-8/);

      const encoding = await post(path, '{}', { ...json, 'content-encoding': 'bogus' });
      expect(encoding).toMatchObject({ status: 400, body: { code: 'invalid_input', details: { encoding: 'bogus' } } });
      expect(encoding.body.message).toMatch(/Unsupported Content-Encoding "bogus": send the body uncompressed, or compressed with gzip, deflate or br/);

      const notGzip = await post(path, '{}', { ...json, 'content-encoding': 'gzip' });
      expect(notGzip).toMatchObject({ status: 400, body: { code: 'invalid_input' } });
      expect(notGzip.body.message).toMatch(/does not decompress as its Content-Encoding says/);

      const malformed = await post(path, '{"prompt": ', json);
      expect(malformed).toMatchObject({ status: 400, body: { code: 'invalid_input', message: expect.any(String) } });

      for (const response of [big, charset, encoding, notGzip, malformed]) expect(response.contentType).toMatch(/^application\/json/);
      // A warning with the reason, no stack trace, and nothing logged as an unhandled error.
      const refusals = warned.mock.calls.filter(([, message]) => message === 'request body refused');
      expect(refusals).toHaveLength(4);
      for (const [fields] of refusals) expect(Object.keys(fields as object).sort()).toEqual(['code', 'reason', 'statusCode']);
      expect(failed).not.toHaveBeenCalled();
    });

    it('a gzip body that is what it says is decoded and reaches validation', async () => {
      const answer = await fetch(`${running.baseUrl}/api/sessions`, {
        method: 'POST',
        headers: { ...json, 'content-encoding': 'gzip', authorization: `Bearer ${TOKEN}` },
        body: gzipSync(JSON.stringify({ agentID: 'x' })),
      });
      expect(answer.status).toBe(400); // parsed, then refused by validation for its unknown key
      expect(((await answer.json()) as Json).message).toContain('agentID');
    });

    it('Content-Length lies and bad header bytes get a JSON 400 from the HTTP layer, not a bare 400 or a hang', async () => {
      const short = await rawHttp(running.baseUrl, {
        method: 'POST',
        target: '/api/sessions',
        headers: [['Content-Type', 'application/json']],
        body: '{"a":1}',
        contentLength: 100,
        halfClose: true,
      });
      const long = await rawHttp(running.baseUrl, {
        method: 'POST',
        target: '/health',
        headers: [['Content-Type', 'application/json']],
        body: '{"a":1}',
        contentLength: 3,
      });
      const badByte = await rawHttp(running.baseUrl, { method: 'GET', target: '/health', headers: [['Authorization', 'Bearer \u0001']] });
      for (const exchange of [short, long, badByte]) {
        expect(exchange.timedOut).toBe(false);
        expect(exchange.responses.length).toBeGreaterThan(0);
        const last = exchange.responses[exchange.responses.length - 1];
        expect(last.status).toBe(400);
        expect(last.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(last.body)).toMatchObject({ statusCode: 400, code: 'invalid_input', message: expect.stringMatching(/not valid HTTP/) });
      }
    });
  });

  describe('JSON nesting and stored sizes', () => {
    it('5,000 levels in tools[].parameters or mcpServers: 400 naming the field (was a 500 from the event store)', async () => {
      const postText = async (text: string) => {
        const response = await fetch(`${running.baseUrl}/api/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
          body: text,
        });
        return { status: response.status, body: (await response.json()) as Json };
      };
      const deepTool = JSON.stringify(tool('DEEP')).replace('"DEEP"', nestedText(5000));
      const inParameters = await postText(`{"tools":[${deepTool}]}`);
      expect(inParameters).toMatchObject({ status: 400, body: { code: 'invalid_input', details: { maxDepth: 64 } } });
      expect(inParameters.body.message).toMatch(/^tools\.0\.parameters\.a\.a.*: JSON nested more than 64 levels deep/);

      const inMcp = await postText(`{"customAgents":[{"name":"x","prompt":"p","mcpServers":{"deep":${nestedText(5000)}}}]}`);
      expect(inMcp.status).toBe(400);
      expect(inMcp.body.message).toMatch(/^customAgents\.0\.mcpServers\.deep\.a.*: JSON nested more than 64 levels deep/);
    });

    it('1,000 levels: 400 at once (was accepted, then the CLI never answered and the session failed 60 s later)', async () => {
      const refused = await rest('POST', '/api/sessions', { tools: [tool(nested(1000))] });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^tools\.0\.parameters/);
      // The same through GraphQL: variables in the HTTP body, a literal in the document, variables over WebSocket.
      const mutation = 'mutation ($input: CreateSessionInput) { createSession(input: $input) { sessionId } }';
      const variables = await gql(mutation, { input: { tools: [tool(nested(1000))] } });
      expect(variables.status).toBe(400);
      expect((variables.body as unknown as Json).message).toMatch(/^variables\.input\.tools\.0\.parameters/);
      const literal = `mutation { createSession(input: { tools: [{ name: "t", description: "d", handler: { type: "builtin", name: "agent_run" }, parameters: ${'{a: '.repeat(100)}1${'}'.repeat(100)} }] }) { sessionId } }`;
      const inDocument = await gql(literal);
      expect(inDocument.status).toBe(400);
      expect(inDocument.body.errors?.[0].message).toMatch(/JSON nested more than 64 levels deep/);
      const overWs = new GraphqlSubscription(ws(`Bearer ${TOKEN}`), mutation, { input: { tools: [tool(nested(1000))] } }).start();
      await overWs.waitForEnd();
      expect(overWs.values).toEqual([]);
      expect(JSON.stringify(overWs.errors)).toMatch(/JSON nested more than 64 levels deep/);
      // A WebSocket message has no HTTP body check: a lone surrogate in any variable is refused there too.
      const lone = new GraphqlSubscription(
        ws(`Bearer ${TOKEN}`),
        'mutation ($id: ID!, $p: String!) { sendMessage(sessionId: $id, prompt: $p) { sessionId } }',
        { id: 'x', p: 'a\ud800' },
      ).start();
      await lone.waitForEnd();
      expect(lone.errors).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(/^variables\.p: text that is not well-formed Unicode/),
          extensions: expect.objectContaining({ code: 'invalid_input' }),
        }),
      ]);
    });

    it('a tool schema over 64 KiB: 413 naming tools.N.parameters', async () => {
      const heavy = { type: 'object', description: 'x'.repeat(70_000) };
      const refused = await rest('POST', '/api/sessions', { tools: [tool({ type: 'object' }), tool(heavy)].map((t, i) => ({ ...t, name: `t${i}` })) });
      expect(refused).toMatchObject({ status: 413, body: { code: 'payload_too_large', details: { field: 'tools.1.parameters', maxBytes: 65536 } } });
      expect(refused.body.message).toMatch(/^tools\.1\.parameters is \d+ bytes as JSON; at most 65536 bytes may be stored there/);
    });
  });

  describe('GraphQL', () => {
    it('a negative limit next to 1,000 aliases is refused before anything runs (it bypassed the complexity limit)', async () => {
      const aliases = Array.from({ length: 1000 }, (_, i) => `a${i}: sessions { sessionId }`).join(' ');
      const refused = await gql(`{ neg: sessions(limit: -5000000) { sessionId } ${aliases} }`);
      expect(refused.status).toBe(400);
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors).toEqual([
        expect.objectContaining({
          message: 'limit: must be an integer from 1 to 1000 (got -5000000)',
          path: ['neg'],
          extensions: { code: 'invalid_input', statusCode: 400 },
        }),
      ]);
      // Over-max sizes too, as variables and nested; the thousand aliases alone are over the complexity limit.
      const nestedSize = await gql('query ($n: Int) { runs { edges { node { children(first: $n) { runId } } } } }', { n: 501 });
      expect(nestedSize.body.errors?.[0]).toMatchObject({
        message: 'first: must be an integer from 1 to 500 (got 501)',
        extensions: { code: 'invalid_input' },
      });
      expect((await gql(`{ ${aliases} }`)).body.errors?.[0].extensions.code).toBe('query_too_complex');
    });

    it('a subscription over HTTP POST is a 400 saying where subscriptions are served (was internal_error)', async () => {
      const refused = await gql('subscription { sessionEvents(sessionId: "x") { type } }');
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([
        expect.objectContaining({
          message: expect.stringContaining('Subscriptions are served over WebSocket at /graphql'),
          extensions: expect.objectContaining({ code: 'invalid_input' }),
        }),
      ]);
    });

    it('answers with the REST codes: runEvents on an unknown run is unknown_run, as GET /api/runs/:id', async () => {
      const overRest = await rest('GET', '/api/runs/no-such-run');
      expect(overRest).toMatchObject({ status: 404, body: { code: 'unknown_run' } });
      const events = new GraphqlSubscription(ws(`Bearer ${TOKEN}`), 'subscription { runEvents(runId: "no-such-run") { type } }').start();
      await events.waitForEnd();
      expect(events.errors).toEqual([
        expect.objectContaining({ message: overRest.body.message, extensions: expect.objectContaining({ code: 'unknown_run', statusCode: 404 }) }),
      ]);
    });
  });

  it('POST /api/sessions refuses unknown keys naming them, as POST /api/runs does (agentID made a plain session)', async () => {
    const refused = await rest('POST', '/api/sessions', { agentID: 'x' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'invalid_input' } });
    expect(refused.body.message).toContain('"agentID"');
    const nestedKey = await rest('POST', '/api/sessions', { permissionPolicy: { allowKinds: ['read'], allowAll: true } });
    expect(nestedKey.status).toBe(400);
    expect(nestedKey.body.message).toMatch(/^permissionPolicy: .*"allowAll"/);
    const message = await rest('POST', '/api/sessions/x/messages', { prompt: 'hi', promt: 'typo' });
    expect(message.status).toBe(400);
    expect(message.body.message).toContain('"promt"');
  });

  it('a name with a control character is a 400 naming the field and the character, on every route that takes a name (issue 39)', async () => {
    const customAgent = { name: 'helper', displayName: 'Help\u0000er', prompt: 'Help.' };
    for (const [path, body, field] of [
      ['/api/keys', { name: '\u0000', role: 'viewer' }, 'name'],
      ['/api/agents', { id: 'ctl-agent', name: 'Line\nbreak' }, 'name'],
      ['/api/schedules', { name: 'Nightly\u001b[31m', agentId: 'nobody', prompt: 'Go.', cron: '0 2 * * *' }, 'name'],
      ['/api/sessions', { customAgents: [customAgent] }, 'customAgents.0.displayName'],
      ['/api/agents/import', { files: [{ name: 'lead\u0007.json', content: '{"name": "Lead"}' }] }, 'files.0.name'],
    ] as const) {
      const refused = await rest('POST', path, body);
      expect(refused).toMatchObject({ status: 400, body: { code: 'invalid_input' } });
      expect(refused.body.message).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}: must not contain control characters \\(U\\+00`));
    }
    expect((await rest('GET', '/api/keys')).body.keys ?? []).not.toContainEqual(expect.objectContaining({ name: '\u0000' }));
    const overGraphql = await gql('mutation ($input: ScheduleInput!) { createSchedule(input: $input) { id } }', {
      input: { name: 'tab\there', agentId: 'nobody', prompt: 'Go.', cron: '0 2 * * *' },
    });
    expect(overGraphql.body.errors?.[0]).toMatchObject({
      extensions: { code: 'invalid_input' },
      message: expect.stringContaining('name: must not contain control characters (U+0009'),
    });
    const fileOverGraphql = await gql('mutation ($files: [AgentFileInput!]!) { importAgents(files: $files) { created } }', {
      files: [{ name: 'lead\r.json', content: '{"name": "Lead"}' }],
    });
    expect(fileOverGraphql.body.errors?.[0]).toMatchObject({
      extensions: { code: 'invalid_input' },
      message: expect.stringContaining('name: must not contain control characters (U+000D'),
    });
    // Printable names in any script still go through.
    expect((await rest('POST', '/api/keys', { name: 'nächtlicher Schlüssel 🔑', role: 'viewer' })).status).toBe(201);
  });

  it('takes the bearer scheme in any case: REST, GraphQL over HTTP and graphql-ws connection_init', async () => {
    for (const scheme of ['bearer', 'BEARER']) {
      expect((await jsonHttp(() => running.baseUrl, { authorization: `${scheme} ${TOKEN}` })('GET', '/api/sessions')).status).toBe(200);
      const overHttp = await graphqlHttp(() => running.baseUrl)('{ sessions { sessionId } }', undefined, { authorization: `${scheme} ${TOKEN}` });
      expect(overHttp).toMatchObject({ status: 200, body: { data: { sessions: expect.any(Array) } } });
      const overWs = new GraphqlSubscription(ws(`${scheme} ${TOKEN}`), '{ sessions { sessionId } }').start();
      await overWs.waitForEnd();
      expect(overWs.errors).toEqual([]);
      expect(overWs.values).toEqual([{ sessions: expect.any(Array) }]);
    }
    expect((await jsonHttp(() => running.baseUrl, { authorization: `bearer wrong-${TOKEN}` })('GET', '/api/sessions')).status).toBe(401);
  });
});

/** The cases that need real sessions, on the real Copilot CLI with the scripted model. */
describe('bad input on real sessions (real Copilot CLI)', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;

  beforeAll(async () => {
    await model.start();
    model.setScript([{ name: 'answer', who: 'parent', answer: { text: 'OK' } }]);
    running = await startRealCliApp(model);
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  it('a command on a destroyed session is 409 naming its status, while GET still answers it (was 404 "does not exist")', async () => {
    const created = await running.http('POST', '/api/sessions', {});
    expect(created.status).toBe(201);
    const { sessionId } = created.body;
    expect((await running.http('DELETE', `/api/sessions/${sessionId}`)).status).toBe(200);

    const message = await running.http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'hello' });
    expect(message).toMatchObject({ status: 409, body: { code: 'invalid_state', details: { sessionId, status: 'destroyed' } } });
    expect(message.body.message).toMatch(new RegExp(`^Session ${sessionId} is destroyed .*; create a new session$`));
    for (const [method, path, body] of [
      ['POST', `/api/sessions/${sessionId}/resume`, undefined],
      ['POST', `/api/sessions/${sessionId}/abort`, undefined],
      ['PATCH', `/api/sessions/${sessionId}`, { subAgents: [] }],
      ['DELETE', `/api/sessions/${sessionId}`, undefined],
    ] as const) {
      expect(await running.http(method, path, body)).toMatchObject({ status: 409, body: { code: 'invalid_state', details: { status: 'destroyed' } } });
    }
    expect(await running.http('GET', `/api/sessions/${sessionId}`)).toMatchObject({ status: 200, body: { status: 'destroyed' } });
    expect((await running.http('POST', '/api/sessions/never-created/messages', { prompt: 'hello' })).status).toBe(404);
  }, 60_000);

  it('a message to a session that failed to start is 409 naming its status and why', async () => {
    const failed = await running.http('POST', '/api/sessions', { subAgents: ['no-such-agent'] });
    expect(failed).toMatchObject({ status: 422, body: { code: 'invalid_sub_agents' } });
    const { sessionId } = failed.body.details;
    const message = await running.http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'hello' });
    expect(message).toMatchObject({ status: 409, body: { code: 'invalid_state', details: { sessionId, status: 'failed' } } });
    expect(message.body.message).toMatch(new RegExp(`^Session ${sessionId} is failed \\(.*no-such-agent.*\\); create a new session$`));
  }, 60_000);

  // Found by the property test: each was valid to Switchboard and then failed at the CLI.
  it('text that is not well-formed Unicode is a 400 naming the field (the CLI never answered it: 60 s, then 503 and a failed session)', async () => {
    const lone = 'a\ud800b';
    for (const [body, field] of [
      [{ tools: [{ ...tool({ type: 'object' }), description: lone }] }, 'tools.0.description'],
      [{ systemMessage: { content: lone } }, 'systemMessage.content'],
      [{ tools: [tool({ type: 'object', properties: { [lone]: { type: 'string' } } })] }, `tools.0.parameters.properties.${lone}`],
    ] as const) {
      const refused = await running.http('POST', '/api/sessions', body);
      expect(refused).toMatchObject({ status: 400, body: { code: 'invalid_input' } });
      expect(refused.body.message).toBe(`${field}: text that is not well-formed Unicode (a lone surrogate such as \\ud800); send valid UTF-8 text`);
    }
    const { sessionId } = (await running.http('POST', '/api/sessions', {})).body;
    expect(await running.http('POST', `/api/sessions/${sessionId}/messages`, { prompt: `hello ${lone}` })).toMatchObject({
      status: 400,
      body: { details: { path: ['prompt'] } },
    });
    expect(await running.http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'hello 😀 界' })).toMatchObject({ status: 202 });
  }, 60_000);

  it('a tool name with a dot is a 400 (the CLI refused it: 502 and a failed session)', async () => {
    const refused = await running.http('POST', '/api/sessions', { tools: [{ ...tool({ type: 'object' }), name: 'lookup.v2' }] });
    expect(refused).toMatchObject({ status: 400, body: { code: 'invalid_input' } });
    expect(refused.body.message).toBe('tools.0.name: use letters, digits, _ and - only (the Copilot CLI refuses other characters in tool names)');
  });

  it('a tool schema nested as deep as the body limit allows still starts a session on the CLI (it stops answering near 200)', async () => {
    // Body: object > tools array > tool > parameters: 61 levels left for the schema.
    const created = await running.http('POST', '/api/sessions', { tools: [tool(nested(61))] });
    expect(created).toMatchObject({ status: 201, body: { status: 'active' } });
    expect((await running.http('POST', '/api/sessions', { tools: [tool(nested(62))] })).status).toBe(400);
  }, 60_000);
});
