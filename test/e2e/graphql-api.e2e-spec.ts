import type { Client } from 'graphql-ws';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteDatabase } from '../../src/database/sqlite-database';
import { EventStore } from '../../src/event-store/event-store';
import { AsyncProjectionRunner } from '../../src/projections/async-projection-runner';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { graphqlHttp, GraphqlSubscription, graphqlWs } from '../fixtures/graphql-client';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { RunForest } from '../fixtures/run-forest';
import { SqlStatementCounter } from '../fixtures/sql-statement-counter';
import { waitUntil } from '../fixtures/wait-until';

const TOKEN = 'graphql-e2e-token-0123456789';

/**
 * The GraphQL API over real HTTP and a real WebSocket, on the real app. Runs are read-model rows
 * written straight into SQLite (the delegation engine's projection writes them in production); tool
 * calls, sub-agent launches and events are appended through the EventStore so the real projections fill them.
 */
describe('GraphQL API over HTTP and WebSocket', () => {
  let running: RunningApp;
  let store: EventStore;
  let database: SqliteDatabase;
  const gql = graphqlHttp(() => running.baseUrl, TOKEN);
  const anonymous = graphqlHttp(() => running.baseUrl);
  const rest = jsonHttp(() => running.baseUrl, { authorization: `Bearer ${TOKEN}` });
  const clients: Client[] = [];
  const ws = (token?: string) => {
    const client = graphqlWs(running.baseUrl, token);
    clients.push(client);
    return client;
  };

  /** Waits until the async audit-log projection has applied everything appended so far. */
  const auditCaughtUp = () =>
    waitUntil(async () => running.app.get(AsyncProjectionRunner).position('audit-log') >= (await store.headPosition()), 'the audit log to catch up');

  const createSessionRow = (sessionId: string) =>
    store.append(`session-${sessionId}`, 'no_stream', [
      {
        type: 'session.created',
        data: {
          sessionId,
          config: { model: 'gpt-4.1', tools: [], customAgents: [], permissionPolicy: { allowKinds: [], approveOwnTools: true }, subAgents: [] },
        },
      },
    ]);

  beforeAll(async () => {
    // No lease heartbeat and no scheduler tick (reads every second) within the run: the statement counts
    // below count every statement of the connection.
    running = await startTestApp({
      apiToken: TOKEN,
      instances: { publicUrl: undefined, heartbeatMs: 600_000, leaseTtlMs: 1_800_000 },
      scheduler: { tickMs: 0, minIntervalSeconds: 60 },
    });
    store = running.app.get(EventStore);
    database = running.app.get(SqliteDatabase);
  });
  afterAll(async () => {
    await Promise.all(clients.map(async (c) => c.dispose()));
    await running.close();
  });

  describe('auth', () => {
    it('refuses a query without the token or with a wrong one, introspection included, with 401 and code unauthorized', async () => {
      for (const [query, headers] of [
        ['{ agents { id } }', {}],
        ['{ __schema { queryType { name } } }', {}],
        ['{ agents { id } }', { authorization: 'Bearer wrong-token-wrong-token' }],
      ] as const) {
        const response = await anonymous(query, undefined, headers);
        expect(response.status).toBe(401);
        expect(response.body.data).toBeUndefined();
        expect(response.body.errors?.[0]).toMatchObject({ extensions: { code: 'unauthorized' } });
        expect(response.body.errors?.[0].message).toContain('Authorization: Bearer');
      }
      expect((await gql('{ __schema { queryType { name } } }')).body.data.__schema.queryType.name).toBe('Query');
    });

    it('refuses a subscription without the token at connection, and serves it with the token in connectionParams', async () => {
      await createSessionRow('auth-session');
      const refused = new GraphqlSubscription(ws(), 'subscription { sessionEvents(sessionId: "auth-session") { type } }').start();
      await refused.waitForEnd();
      expect(refused.values).toEqual([]);
      expect(refused.errors).toEqual([{ closeCode: 4403, reason: 'Forbidden' }]);

      const wrong = new GraphqlSubscription(ws('wrong-token-wrong-token'), 'subscription { sessionEvents(sessionId: "auth-session") { type } }').start();
      await wrong.waitForEnd();
      expect(wrong.values).toEqual([]);
      expect(wrong.errors).toEqual([{ closeCode: 4403, reason: 'Forbidden' }]);

      const allowed = new GraphqlSubscription(ws(TOKEN), 'subscription { sessionEvents(sessionId: "auth-session") { type } }').start();
      await allowed.waitFor((v) => v.length === 1, 'the replayed session.created');
      expect(allowed.values).toEqual([{ sessionEvents: { type: 'session.created' } }]);
      allowed.stop();
    });
  });

  describe('bad operations get GraphQL errors, never a crash', () => {
    it('answers a malformed query, an unknown field and a wrong variable type with their error codes', async () => {
      const malformed = await gql('{ agents { id ');
      expect(malformed.status).toBe(400);
      expect(malformed.body.errors?.[0].extensions).toMatchObject({ code: 'GRAPHQL_PARSE_FAILED' });

      const unknown = await gql('{ agents { nope } }');
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors?.[0].extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });

      const wrongType = await gql('query ($n: Int) { runs(first: $n) { pageInfo { hasNextPage } } }', { n: 'ten' });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT' });

      const outOfRange = await gql('{ runs(first: 0) { pageInfo { hasNextPage } } }');
      expect(outOfRange.body.errors?.[0]).toMatchObject({ path: ['runs'], extensions: { code: 'invalid_input', statusCode: 400 } });

      const badCursor = await gql('{ runs(after: "garbage") { pageInfo { hasNextPage } } }');
      expect(badCursor.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_input' });

      const badTime = await gql('{ auditLog(filter: { from: "yesterday" }) { pageInfo { hasNextPage } } }');
      expect(badTime.status).toBe(400);
      expect(badTime.body.errors?.[0].message).toContain('ISO 8601');

      expect((await gql('{ agents { id } }')).status).toBe(200); // still serving
    });

    it('refuses an over-deep and an over-complex query before running it, over HTTP and WebSocket', async () => {
      const deep = `{ run(id: "x") { ${'parent { '.repeat(12)} runId ${'} '.repeat(12)} } }`;
      const tooDeep = await gql(deep);
      expect(tooDeep.status).toBe(400);
      expect(tooDeep.body.errors?.[0]).toMatchObject({ extensions: { code: 'query_too_deep', maxDepth: 12 } });
      expect(tooDeep.body.errors?.[0].message).toMatch(/levels deep/);

      const complex = '{ runs(first: 500) { edges { node { subtree(limit: 10000) { runId } } } } }';
      const tooComplex = await gql(complex);
      expect(tooComplex.status).toBe(400);
      expect(tooComplex.body.errors?.[0].extensions).toMatchObject({ code: 'query_too_complex', maxComplexity: 50000 });

      // Variables count: the same query is fine with a small page.
      const sized = 'query ($n: Int) { runs(first: $n) { edges { node { subtree(limit: 10000) { runId } } } } }';
      expect((await gql(sized, { n: 500 })).body.errors?.[0].extensions.code).toBe('query_too_complex');
      expect((await gql(sized, { n: 2 })).body.errors).toBeUndefined();

      await createSessionRow('deep-session');
      // Operations over the WebSocket meet the same limits (a query here: subscriptions are shallow).
      const overWs = new GraphqlSubscription(ws(TOKEN), deep).start();
      await overWs.waitForEnd();
      expect(overWs.values).toEqual([]);
      expect(overWs.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'query_too_deep' }) })]);
      const fineOverWs = new GraphqlSubscription(ws(TOKEN), '{ agents { id } }').start();
      await fineOverWs.waitForEnd();
      expect(fineOverWs.values).toEqual([{ agents: expect.any(Array) }]);

      const invalid = new GraphqlSubscription(ws(TOKEN), 'subscription { sessionEvents(sessionId: "deep-session") { nope } }').start();
      await invalid.waitForEnd();
      expect(JSON.stringify(invalid.errors)).toContain('Cannot query field');

      const malformed = new GraphqlSubscription(ws(TOKEN), 'subscription { sessionEvents(').start();
      await malformed.waitForEnd();
      expect(JSON.stringify(malformed.errors)).toContain('Syntax Error');

      const wrongType = new GraphqlSubscription(ws(TOKEN), 'subscription ($a: Int) { sessionEvents(sessionId: "deep-session", after: $a) { type } }', {
        a: 'x',
      }).start();
      await wrongType.waitForEnd();
      expect(JSON.stringify(wrongType.errors)).toContain('Int cannot represent');

      const unknownSession = new GraphqlSubscription(ws(TOKEN), 'subscription { sessionEvents(sessionId: "nope") { type } }').start();
      await unknownSession.waitForEnd();
      expect(JSON.stringify(unknownSession.errors)).toContain('not_found');
    });
  });

  describe('agents', () => {
    const fields =
      'id name description systemMessage { mode content } model tools { custom builtin excludedBuiltin } subAgents version composable composableReasons subAgentProblems { id reason }';

    it('creates, lists with composable and reasons, updates, imports and deletes agents through mutations', async () => {
      const reviewer = await gql(`mutation ($input: CreateAgentInput!) { createAgent(input: $input) { ${fields} } }`, {
        input: {
          name: 'Code Reviewer',
          description: 'Reviews code',
          systemMessage: { mode: 'replace', content: 'You review code.' },
          model: 'gpt-4.1-mini',
        },
      });
      expect(reviewer.body.errors).toBeUndefined();
      expect(reviewer.body.data.createAgent).toMatchObject({
        id: 'code-reviewer',
        version: 1,
        composable: true,
        composableReasons: [],
        systemMessage: { mode: 'replace' },
      });

      const lead = await gql(
        `mutation { createAgent(input: { id: "lead", name: "Lead", tools: { custom: ["x"] }, subAgents: ["code-reviewer"] }) { ${fields} } }`,
      );
      expect(lead.body.data.createAgent).toMatchObject({ id: 'lead', composable: false, subAgents: ['code-reviewer'] });
      expect(lead.body.data.createAgent.composableReasons.join(' ')).toMatch(/custom tools/);

      const refused = await gql('mutation { createAgent(input: { id: "bad", name: "Bad", subAgents: ["lead"] }) { id } }');
      expect(refused.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_sub_agents', statusCode: 422 });
      expect(refused.body.errors?.[0].extensions.details.problems[0].id).toBe('lead');

      const listed = await gql(
        '{ all: agents { id composable } composable: agents(composable: true) { id } eligible: eligibleSubAgents(exclude: "lead") { id } agent(id: "lead") { id } missing: agent(id: "nope") { id } }',
      );
      expect(listed.body.data).toEqual({
        all: [
          { id: 'code-reviewer', composable: true },
          { id: 'lead', composable: false },
        ],
        composable: [{ id: 'code-reviewer' }],
        eligible: [{ id: 'code-reviewer' }],
        agent: { id: 'lead' },
        missing: null,
      });

      const updated = await gql(
        'mutation { updateAgent(id: "code-reviewer", expectedVersion: 1, input: { name: "Code Reviewer", description: "" , systemMessage: { content: "You review." } }) { version composable composableReasons } }',
      );
      expect(updated.body.data.updateAgent).toMatchObject({ version: 2, composable: false });
      const stale = await gql('mutation { updateAgent(id: "code-reviewer", expectedVersion: 1, input: { name: "X" }) { version } }');
      expect(stale.body.errors?.[0].extensions).toMatchObject({ code: 'expected_version_conflict', statusCode: 409 });
      const invalid = await gql('mutation { updateAgent(id: "code-reviewer", input: { name: "" }) { version } }');
      expect(invalid.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_input' });

      const imported = await gql('mutation ($files: [AgentFileInput!]!) { importAgents(files: $files) { created updated unchanged } }', {
        files: [
          { name: 'helper.json', content: JSON.stringify({ id: 'helper', name: 'Helper', description: 'Helps', system_message: { content: 'Help.' } }) },
        ],
      });
      expect(imported.body.data.importAgents).toEqual({ created: ['helper'], updated: [], unchanged: [] });

      const deleted = await gql('mutation { deleteAgent(id: "helper") { id deleted } }');
      expect(deleted.body.data.deleteAgent).toEqual({ id: 'helper', deleted: true });
      expect((await rest('GET', '/api/agents/helper')).status).toBe(404);
    });
  });

  describe('sessions', () => {
    it('lists sessions and shows one with its sub-agent launches; session mutations answer with their codes', async () => {
      await createSessionRow('listed-session');
      await store.append('session-listed-session', 'any', [
        {
          type: 'subagent.started',
          data: { parentSessionId: 'listed-session', childSessionId: 'c1', via: 'agentId', toolCallId: 't1', agentName: 'reviewer' },
        },
      ]);
      const result = await gql(
        '{ sessions { sessionId status } session(id: "listed-session") { sessionId model config subagents { toolCallId agentName status } } missing: session(id: "nope") { sessionId } }',
      );
      expect(result.body.data.sessions.map((s: Json) => s.sessionId)).toContain('listed-session');
      expect(result.body.data.session).toMatchObject({
        sessionId: 'listed-session',
        model: 'gpt-4.1',
        config: { model: 'gpt-4.1' },
        subagents: [{ toolCallId: 't1', agentName: 'reviewer', status: 'running' }],
      });
      expect(result.body.data.missing).toBeNull();

      const noProvider = await gql('mutation { createSession(input: { model: "gpt-4.1" }) { sessionId } }');
      expect(noProvider.body.errors?.[0].extensions).toMatchObject({ code: 'provider_not_configured', statusCode: 503 });
      const badInput = await gql(
        'mutation { createSession(input: { tools: [{ name: "t", description: "d", handler: { type: "webhook", url: "ftp://x" } }] }) { sessionId } }',
      );
      expect(badInput.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_input' });
      const notLive = await gql('mutation { sendMessage(sessionId: "nope", prompt: "hi") { sessionId } }');
      expect(notLive.body.errors?.[0].extensions).toMatchObject({ code: 'not_found', statusCode: 404 });
      const emptyPrompt = await gql('mutation { sendMessage(sessionId: "listed-session", prompt: "") { sessionId } }');
      expect(emptyPrompt.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_input' });
      const changed = await gql('mutation { changeSessionSubAgents(sessionId: "listed-session", subAgents: []) { sessionId subAgents } }');
      // The row was appended, never started on the CLI: not live, so a 409 naming its status and no change.
      expect(changed.body.data).toBeNull();
      expect(changed.body.errors).toHaveLength(1);
      expect(changed.body.errors?.[0]).toMatchObject({
        path: ['changeSessionSubAgents'],
        extensions: { code: 'invalid_state', statusCode: 409, details: { sessionId: 'listed-session', status: 'starting' } },
      });
      expect((await store.readStream('session-listed-session')).map((e) => e.type)).toEqual(['session.created', 'subagent.started']);
    });

    it("lists each session's agent, sub-agents (after a change), status reason and last activity, as the session query shows them", async () => {
      const config = { model: 'gpt-4.1', tools: [], customAgents: [], permissionPolicy: { allowKinds: [], approveOwnTools: true } };
      await store.append('session-team-session', 'no_stream', [
        { type: 'session.created', data: { sessionId: 'team-session', config: { ...config, agentId: 'lead', subAgents: ['coder', 'tester'] } } },
      ]);
      await store.append('session-team-session', 'any', [{ type: 'session.sub_agents_changed', data: { subAgents: ['coder'] } }]);
      await store.append('session-team-session', 'any', [{ type: 'session.interrupted', data: { reason: 'The Copilot CLI exited', wasRunning: false } }]);
      await createSessionRow('plain-session');
      const lastEvent = (await store.readStream('session-team-session')).at(-1)!;

      const result = await gql(
        '{ sessions(limit: 1000) { sessionId status statusReason agentId subAgents updatedAt } session(id: "team-session") { agentId subAgents statusReason } }',
      );
      expect(result.body.errors).toBeUndefined();
      const listed = result.body.data.sessions as Json[];
      expect(listed.find((s) => s.sessionId === 'team-session')).toEqual({
        sessionId: 'team-session',
        status: 'interrupted',
        statusReason: 'The Copilot CLI exited',
        agentId: 'lead',
        subAgents: ['coder'],
        updatedAt: lastEvent.recordedAt,
      });
      expect(listed.find((s) => s.sessionId === 'plain-session')).toMatchObject({ agentId: null, subAgents: [] });
      expect(result.body.data.session).toEqual({ agentId: 'lead', subAgents: ['coder'], statusReason: 'The Copilot CLI exited' });
    });

    it('replays a session stream from a position and then goes live, each event once, for a subscription opened mid-stream', async () => {
      await createSessionRow('streaming');
      const append = (n: number) => store.append('session-streaming', 'any', [{ type: 'test.tick', data: { n } }]);
      for (let n = 1; n <= 5; n += 1) await append(n);
      // Appends keep coming while the subscription replays: 6..40 race the catch-up.
      const writer = (async () => {
        for (let n = 6; n <= 40; n += 1) await append(n);
      })();
      const subscription = new GraphqlSubscription<{ sessionEvents: { streamPosition: number; type: string; data: Json } }>(
        ws(TOKEN),
        'subscription ($after: Int) { sessionEvents(sessionId: "streaming", after: $after) { streamPosition globalPosition type data } }',
        { after: 3 },
      ).start();
      await writer;
      await subscription.waitFor((v) => v.some((e) => e.sessionEvents.data?.n === 40), 'tick 40');
      for (let n = 41; n <= 45; n += 1) await append(n);
      const values = await subscription.waitFor((v) => v.some((e) => e.sessionEvents.data?.n === 45), 'tick 45');
      // stream position 1 is session.created, tick n is at position n + 1; after 3 means from tick 3.
      expect(values.map((v) => v.sessionEvents.streamPosition)).toEqual(Array.from({ length: 43 }, (_, i) => i + 4));
      expect(values.map((v) => v.sessionEvents.data.n)).toEqual(Array.from({ length: 43 }, (_, i) => i + 3));
      subscription.stop();
    });
  });

  describe('runs', () => {
    const forest = new RunForest();
    const root = forest.root({
      agentId: 'lead',
      status: 'running',
      inputTokens: 100,
      outputTokens: 10,
      toolCalls: 1,
      durationMs: 1000,
      startedAt: '2026-03-01T00:00:00.000Z',
    });
    const researcher = forest.child(root, {
      agentId: 'researcher',
      inputTokens: 50,
      outputTokens: 5,
      toolCalls: 2,
      durationMs: 500,
      startedAt: '2026-03-01T00:00:01.000Z',
    });
    const digger = forest.child(researcher, {
      agentId: 'digger',
      status: 'failed',
      error: 'boom',
      inputTokens: 20,
      outputTokens: 2,
      toolCalls: 3,
      durationMs: 200,
      startedAt: '2026-03-01T00:00:02.000Z',
    });
    const writer = forest.child(root, {
      agentId: 'writer',
      status: 'stopped',
      stoppedBy: JSON.stringify({ actor: 'api', reason: 'enough' }),
      background: true,
      startedAt: '2026-03-01T00:00:03.000Z',
    });
    const big = forest.root({ agentId: 'fanout', startedAt: '2026-03-02T00:00:00.000Z' });
    // 999 runs below `big`: 9 levels of chains under 111 children, so the subtree has 1,000 runs.
    for (let i = 0; i < 111; i += 1)
      forest.chain(forest.child(big, { inputTokens: 1, outputTokens: 1, toolCalls: 1, durationMs: 1 }), 8, {
        inputTokens: 1,
        outputTokens: 1,
        toolCalls: 1,
        durationMs: 1,
      });

    beforeAll(async () => {
      forest.insertInto(database.connection);
      await store.append(`session-${researcher.threadId}`, 'no_stream', [
        {
          type: 'tool_call.routed',
          data: {
            via: 'external_tool.requested',
            parentSessionId: researcher.threadId,
            toolName: 'search',
            arguments: { q: 'x' },
            outcome: 'success',
            result: 'found',
            latencyMs: 12,
          },
        },
        {
          type: 'permission.decided',
          data: {
            via: 'permission.requested',
            parentSessionId: researcher.threadId,
            toolName: 'shell',
            outcome: 'denied',
            reason: 'policy',
            latencyMs: 1,
          },
        },
        {
          type: 'subagent.started',
          data: { parentSessionId: researcher.threadId, childSessionId: 'native-1', via: 'agentId', toolCallId: 'tc-1', agentName: 'helper' },
        },
      ]);
      await store.append(`run-${researcher.runId}`, 'no_stream', [
        { type: 'test.run_noted', data: { runId: researcher.runId, note: 'first' } },
        { type: 'test.run_noted', data: { runId: researcher.runId, note: 'second' } },
      ]);
      // The statement counter sees every statement on the connection: the audit projection must be idle first.
      await auditCaughtUp();
    });

    it('answers a run tree with lineage, usage, tool calls, permission decisions, sub-agents and events', async () => {
      const result = await gql(
        `query ($id: ID!) { run(id: $id) {
          runId agentId status depth parent { runId } ancestors { runId }
          children { runId agentId status stoppedBy background }
          subtree { runId depth }
          shallow: subtree(maxDepth: 1) { runId }
          usage { own { inputTokens totalTokens runs } subtree { runs inputTokens outputTokens totalTokens toolCalls durationMs } }
        } researcher: run(id: "${researcher.runId}") {
          parent { runId } ancestors { runId }
          toolCalls { kind toolName arguments result outcome latencyMs }
          permissionDecisions { toolName outcome reason }
          subagentInstances { agentName childSessionId status }
          events { events { type streamPosition globalPosition data } nextAfter }
          withSession: events(includeSession: true) { events { type } }
        } digger: run(id: "${digger.runId}") { ancestors { runId } error usage { subtree { inputTokens } } }
        missing: run(id: "nope") { runId } }`,
        { id: root.runId },
      );
      expect(result.body.errors).toBeUndefined();
      const { run, researcher: r, digger: d, missing } = result.body.data;
      expect(run).toMatchObject({ runId: root.runId, agentId: 'lead', status: 'running', depth: 0, parent: null, ancestors: [] });
      expect(run.children).toEqual([
        { runId: researcher.runId, agentId: 'researcher', status: 'completed', stoppedBy: null, background: false },
        { runId: writer.runId, agentId: 'writer', status: 'stopped', stoppedBy: { actor: 'api', reason: 'enough' }, background: true },
      ]);
      expect(run.subtree).toEqual([
        { runId: root.runId, depth: 0 },
        { runId: researcher.runId, depth: 1 },
        { runId: digger.runId, depth: 2 },
        { runId: writer.runId, depth: 1 },
      ]);
      expect(run.shallow.map((x: Json) => x.runId)).toEqual([root.runId, researcher.runId, writer.runId]);
      expect(run.usage).toEqual({
        own: { inputTokens: 100, totalTokens: 110, runs: 1 },
        subtree: { runs: 4, inputTokens: 170, outputTokens: 17, totalTokens: 187, toolCalls: 6, durationMs: 1700 },
      });
      expect(r.parent).toEqual({ runId: root.runId });
      expect(r.toolCalls).toEqual([
        { kind: 'tool_call.routed', toolName: 'search', arguments: { q: 'x' }, result: 'found', outcome: 'success', latencyMs: 12 },
      ]);
      expect(r.permissionDecisions).toEqual([{ toolName: 'shell', outcome: 'denied', reason: 'policy' }]);
      expect(r.subagentInstances).toEqual([{ agentName: 'helper', childSessionId: 'native-1', status: 'running' }]);
      expect(r.events.events.map((e: Json) => [e.data.note, e.streamPosition])).toEqual([
        ['first', 1],
        ['second', 2],
      ]);
      expect(r.events.nextAfter).toBe(r.events.events[1].globalPosition);
      expect(r.withSession.events.map((e: Json) => e.type)).toEqual([
        'tool_call.routed',
        'permission.decided',
        'subagent.started',
        'test.run_noted',
        'test.run_noted',
      ]);
      expect(d).toEqual({ ancestors: [{ runId: root.runId }, { runId: researcher.runId }], error: 'boom', usage: { subtree: { inputTokens: 20 } } });
      expect(missing).toBeNull();
    });

    it("answers the README's run-tree query", async () => {
      const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
      const query = [...readme.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]).find((q) => q.startsWith('query RunTree'));
      expect(query).toBeDefined();
      const result = await gql(query as string, { id: root.runId });
      expect(result.body.errors).toBeUndefined();
      expect(result.body.data.run.usage.subtree).toMatchObject({ runs: 4, totalTokens: 187 });
      expect(result.body.data.run.subtree).toHaveLength(4);
    });

    it('costs a bounded number of SQL statements for a 1,000-run subtree with its usage, the same as for a 4-run one', async () => {
      const query = `query ($id: ID!) { run(id: $id) { subtree(limit: 1000) {
        runId status parent { runId } children(first: 5) { runId } usage { own { totalTokens } subtree { runs totalTokens toolCalls durationMs } }
        toolCalls { toolName } permissionDecisions { outcome } subagentInstances { agentName } events(first: 2) { nextAfter }
      } } }`;
      const counter = new SqlStatementCounter(database.connection);
      try {
        const bigTree = await counter.measure(() => gql(query, { id: big.runId }));
        const smallTree = await counter.measure(() => gql(query, { id: root.runId }));
        expect(bigTree.result.body.errors).toBeUndefined();
        const nodes = bigTree.result.body.data.run.subtree as Json[];
        expect(nodes).toHaveLength(1000);
        expect(nodes[0].usage.subtree).toEqual({ runs: 1000, totalTokens: 1998, toolCalls: 999, durationMs: 999 });
        expect(nodes.filter((n) => n.children.length === 0)).toHaveLength(111);
        // run, subtree, parents, children, usage, tool calls, permissions, sub-agents, events: one each.
        expect(bigTree.statements).toBeLessThanOrEqual(9);
        expect(bigTree.statements).toBe(smallTree.statements);
      } finally {
        counter.dispose();
      }
      // A 1,000-node answer on a loaded 2-core CI machine can take longer than jest's default 5 s.
    }, 60_000);

    it("costs one statement per model-call field for a 1,000-run subtree's calls and spend, the same as for a 4-run one", async () => {
      const query = `query ($id: ID!) { run(id: $id) { subtree(limit: 1000) {
        runId own: modelCalls(limit: 2) { calls { callId request } nextCursor } all: modelCalls(subtree: true, limit: 2) { nextCursor }
        modelCallSpend { calls } subtreeSpend: modelCallSpend(subtree: true) { calls cost }
      } } }`;
      const counter = new SqlStatementCounter(database.connection);
      try {
        const bigTree = await counter.measure(() => gql(query, { id: big.runId }));
        const smallTree = await counter.measure(() => gql(query, { id: root.runId }));
        expect(bigTree.result.body.errors).toBeUndefined();
        expect(bigTree.result.body.data.run.subtree).toHaveLength(1000);
        expect(bigTree.result.body.data.run.subtree[0].subtreeSpend).toEqual({ calls: 0, cost: 0 });
        // run, subtree, own pages, subtree pages, own spends, subtree spends: one each.
        expect(bigTree.statements).toBeLessThanOrEqual(6);
        expect(bigTree.statements).toBe(smallTree.statements);
      } finally {
        counter.dispose();
      }
    }, 60_000);

    it('lists runs with filters and pages them by cursor without skipping or repeating across inserts', async () => {
      const filtered = await gql(
        '{ failed: runs(filter: { status: "failed" }) { edges { node { runId } } } byAgent: runs(filter: { agentId: "writer" }) { edges { node { runId } } } byRoot: runs(filter: { rootRunId: "' +
          root.runId +
          '" }) { edges { node { runId } } } window: runs(filter: { startedFrom: "2026-03-01T00:00:01Z", startedTo: "2026-03-01T00:00:03Z" }) { edges { node { runId } } } }',
      );
      const idsOf = (c: Json) => c.edges.map((e: Json) => e.node.runId);
      expect(idsOf(filtered.body.data.failed)).toEqual([digger.runId]);
      expect(idsOf(filtered.body.data.byAgent)).toEqual([writer.runId]);
      expect(idsOf(filtered.body.data.byRoot)).toEqual([writer.runId, digger.runId, researcher.runId, root.runId]);
      expect(idsOf(filtered.body.data.window)).toEqual([digger.runId, researcher.runId]);

      const seen: string[] = [];
      let after: string | null = null;
      for (let page = 0; page < 10; page += 1) {
        const response = await gql(
          'query ($after: String) { runs(filter: { rootRunId: "' +
            root.runId +
            '" }, first: 1, after: $after) { edges { cursor node { runId } } pageInfo { hasNextPage endCursor } } }',
          { after },
        );
        const connection = response.body.data.runs;
        seen.push(...idsOf(connection));
        const late = new RunForest();
        late.child(root, { startedAt: new Date().toISOString() });
        late.insertInto(database.connection);
        if (!connection.pageInfo.hasNextPage) break;
        after = connection.pageInfo.endCursor;
        expect(connection.edges[connection.edges.length - 1].cursor).toBe(after);
      }
      expect(seen).toEqual([writer.runId, digger.runId, researcher.runId, root.runId]);
    });
  });

  describe('audit', () => {
    it('filters the audit log by session, run, agent, tool, decision and time, over GraphQL and REST alike', async () => {
      const before = new Date().toISOString();
      await store.append('session-audited', 'no_stream', [
        {
          type: 'tool_call.routed',
          data: { parentSessionId: 'audited', agentName: 'audit-reviewer', toolName: 'save_result', outcome: 'success', latencyMs: 1 },
          metadata: { actor: 'cli' },
        },
        { type: 'permission.decided', data: { parentSessionId: 'audited', toolName: 'audit-shell', outcome: 'denied', latencyMs: 1 } },
      ]);
      await store.append('run-audited-run', 'no_stream', [
        { type: 'test.run_noted', data: { runId: 'audited-run', agentId: 'lead', parentThreadId: 'audited' } },
      ]);
      await store.append('agent-audited-agent', 'no_stream', [{ type: 'test.agent_noted', data: {} }]);
      await auditCaughtUp();

      const query =
        'query ($filter: AuditFilterInput) { auditLog(filter: $filter) { edges { node { streamId eventType actor sessionId runId agentId toolName decision } } } }';
      const types = async (filter: Json) => (await gql(query, { filter })).body.data.auditLog.edges.map((e: Json) => e.node.eventType);
      expect(await types({ sessionId: 'audited' })).toEqual(['tool_call.routed', 'permission.decided', 'test.run_noted']);
      expect(await types({ runId: 'audited-run' })).toEqual(['test.run_noted']);
      expect(await types({ agentId: 'audited-agent' })).toEqual(['test.agent_noted']);
      expect(await types({ agentId: 'audit-reviewer' })).toEqual(['tool_call.routed']);
      expect(await types({ toolName: 'audit-shell' })).toEqual(['permission.decided']);
      expect(await types({ sessionId: 'audited', decision: 'denied' })).toEqual(['permission.decided']);
      expect(await types({ sessionId: 'audited', from: before, to: '2999-01-01T00:00:00Z' })).toHaveLength(3);
      expect(await types({ sessionId: 'audited', to: before })).toEqual([]);
      const first = (await gql(query, { filter: { sessionId: 'audited' } })).body.data.auditLog.edges[0].node;
      expect(first).toEqual({
        streamId: 'session-audited',
        eventType: 'tool_call.routed',
        actor: 'cli',
        sessionId: 'audited',
        runId: null,
        agentId: 'audit-reviewer',
        toolName: 'save_result',
        decision: 'success',
      });

      const viaRest = await rest('GET', `/api/audit?sessionId=audited&decision=denied&from=${encodeURIComponent(before)}`);
      expect(viaRest.status).toBe(200);
      expect(viaRest.body.entries.map((e: Json) => e.eventType)).toEqual(['permission.decided']);
      expect(viaRest.body.entries[0]).toMatchObject({ sessionId: 'audited', toolName: 'audit-shell', decision: 'denied' });
      const badRest = await rest('GET', '/api/audit?from=yesterday');
      expect(badRest).toMatchObject({ status: 400, body: { code: 'invalid_input' } });
      expect((await jsonHttp(() => running.baseUrl)('GET', '/api/audit')).status).toBe(401);
    });

    it('pages in global order without skipping or repeating while events are appended between pages', async () => {
      const append = (n: number) => store.append('session-paged', 'any', [{ type: 'test.page', data: { n } }]);
      for (let n = 0; n < 7; n += 1) await append(n);
      await auditCaughtUp();
      const seen: number[] = [];
      const seenRest: number[] = [];
      let cursor: string | null = null;
      let after = 0;
      for (let page = 0, more = 7; page < 20; page += 1) {
        const response = await gql(
          'query ($after: String) { auditLog(filter: { sessionId: "paged" }, first: 3, after: $after) { edges { cursor node { position } } pageInfo { hasNextPage endCursor } } }',
          { after: cursor },
        );
        const { edges, pageInfo } = response.body.data.auditLog;
        seen.push(...edges.map((e: Json) => e.node.position));
        const restPage = await rest('GET', `/api/audit?sessionId=paged&limit=3&after=${after}`);
        seenRest.push(...restPage.body.entries.map((e: Json) => e.position));
        const appended = more < 10;
        if (appended) await append(more++);
        await auditCaughtUp();
        if (!pageInfo.hasNextPage && !restPage.body.hasMore && !appended) break;
        cursor = pageInfo.endCursor;
        after = restPage.body.nextAfter;
      }
      const all = (await rest('GET', '/api/audit?sessionId=paged&limit=1000')).body.entries.map((e: Json) => e.position);
      expect(all).toHaveLength(10);
      expect(seen).toEqual(all);
      expect(seenRest).toEqual(all);
    });
  });

  it('documents every REST route in the OpenAPI document, with request and error shapes', async () => {
    const document = (await rest('GET', '/api/docs-json')).body;
    // Every route Express serves (but the docs themselves, GraphQL, the sign-in's browser navigations under
    // /auth, described in docs/security.md, and MCP's GET and DELETE, which only answer 405) is in the document.
    const stack = running.app.getHttpAdapter().getInstance().router.stack as Json[];
    const served = stack
      .filter((layer) => layer.route)
      .flatMap((layer) => Object.keys(layer.route.methods).map((method) => [method, String(layer.route.path).replace(/:(\w+)/g, '{$1}')]))
      .filter(([method, path]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method) && !path.includes('*'))
      .filter(([, path]) => !path.startsWith('/api/docs') && path !== '/graphql' && !path.startsWith('/auth/'))
      .filter(([method, path]) => path !== '/mcp' || method === 'post');
    expect(served.length).toBeGreaterThan(20);
    for (const [method, path] of served) {
      const operation = document.paths[path]?.[method];
      expect({ method, path, documented: operation !== undefined }).toEqual({ method, path, documented: true });
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['400', '422', '500']));
      // Health is open.
      if (!/^\/health\//.test(`${path}/`))
        expect(operation.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorResponse');
      if (path.includes('{')) expect(operation.responses['404']).toBeDefined();
    }
    for (const open of ['/health', '/health/live', '/health/ready']) expect(document.paths[open].get.responses['401']).toBeUndefined();
    expect(document.components.schemas.ErrorResponse.required).toEqual(['statusCode', 'code', 'message']);

    // Request shapes come from the zod schemas the routes validate with.
    const createAgent = document.paths['/api/agents'].post.requestBody.content['application/json'].schema;
    expect(createAgent.properties).toEqual(
      expect.objectContaining({ name: expect.anything(), sub_agents: expect.anything(), system_message: expect.anything() }),
    );
    const createSession = document.paths['/api/sessions'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(createSession.properties)).toEqual(expect.arrayContaining(['tools', 'customAgents', 'permissionPolicy', 'agentId']));
    const audit = document.paths['/api/audit'].get.parameters;
    expect(audit.map((p: Json) => p.name)).toEqual(
      expect.arrayContaining(['sessionId', 'runId', 'agentId', 'toolName', 'decision', 'eventType', 'from', 'to', 'after', 'limit']),
    );
    expect(audit.find((p: Json) => p.name === 'limit').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 });
  });
});
