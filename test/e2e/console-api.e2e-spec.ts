import type { Client } from 'graphql-ws';
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery, lexicographicSortSchema, printSchema } from 'graphql';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printGraphqlSchema } from '../../src/graphql-api/schema-printer';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { graphqlHttp, GraphqlSubscription, graphqlWs } from '../fixtures/graphql-client';
import { jsonHttp, jsonVerbs } from '../fixtures/json-http';
import { makeTempDir } from '../fixtures/temp-dir';

const TOKEN = 'console-api-token-0123456789';

const agent = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Agent ${id}`,
  description: `${id} does one thing`,
  system_message: { mode: 'append', content: `You are ${id}.` },
  ...extra,
});

/** What the console's screens read and write, through the public GraphQL API of the real app. */
describe('the GraphQL API the console uses', () => {
  let running: RunningApp;
  const gql = graphqlHttp(() => running.baseUrl, TOKEN);
  const rest = jsonVerbs(jsonHttp(() => running.baseUrl, { authorization: `Bearer ${TOKEN}` }));
  const clients: Client[] = [];

  beforeAll(async () => {
    const { dir } = makeTempDir();
    const mcpConfigFile = path.join(dir, 'mcp-config.json');
    fs.writeFileSync(
      mcpConfigFile,
      JSON.stringify({
        mcpServers: {
          github: { type: 'http', url: 'https://mcp.example.test/', headers: { Authorization: 'Bearer secret-header' } },
          files: { command: 'mcp-files', args: ['--root', '/srv/secret-path'] },
        },
      }),
    );
    running = await startTestApp({ apiToken: TOKEN, mcpConfigFile }, dir);
  });
  afterAll(async () => {
    for (const client of clients) await client.dispose();
    await running.close();
  });

  it('lists the MCP registry by name and kind, never the commands, URLs or headers behind it', async () => {
    const reply = await gql('{ mcpServers { servers { name type } problem } }');
    expect(reply.body.data).toEqual({
      mcpServers: {
        servers: [
          { name: 'files', type: 'local' },
          { name: 'github', type: 'http' },
        ],
        problem: null,
      },
    });
    expect(JSON.stringify(reply.body)).not.toMatch(/secret|mcp-files|example\.test/);
  });

  it("suggests the real CLI's built-in tool names", async () => {
    const reply = await gql('{ knownBuiltinTools }');
    expect(reply.body.data.knownBuiltinTools).toEqual(expect.arrayContaining(['bash', 'view', 'edit', 'grep']));
  });

  it('shows which teams include an agent (the reverse map) and keeps the delegation policy through an edit', async () => {
    expect((await rest.post('/api/agents', agent('reviewer'))).status).toBe(201);
    expect((await rest.post('/api/agents', agent('lead', { sub_agents: ['reviewer'], allowed_agents: ['reviewer'] }))).status).toBe(201);
    expect((await rest.post('/api/agents', agent('lead-two', { sub_agents: ['reviewer'] }))).status).toBe(201);

    const listed = await gql('{ agents { id includedIn allowedAgents excludedAgents } }');
    expect(listed.body.data.agents).toEqual([
      { id: 'lead', includedIn: [], allowedAgents: ['reviewer'], excludedAgents: null },
      { id: 'lead-two', includedIn: [], allowedAgents: null, excludedAgents: null },
      { id: 'reviewer', includedIn: ['lead', 'lead-two'], allowedAgents: null, excludedAgents: null },
    ]);
    expect((await rest.get('/api/agents/reviewer')).body.included_in).toEqual(['lead', 'lead-two']);

    // The console sends every field back on save: the policy it does not edit must survive.
    const saved = await gql(
      `mutation($input: AgentFieldsInput!) { updateAgent(id: "lead", input: $input, expectedVersion: 1) { version allowedAgents } }`,
      {
        input: {
          name: 'Lead',
          description: 'leads',
          systemMessage: { mode: 'append', content: 'Lead.' },
          subAgents: ['reviewer'],
          allowedAgents: ['reviewer'],
          excludedAgents: null,
        },
      },
    );
    expect(saved.body).toEqual({ data: { updateAgent: { version: 2, allowedAgents: ['reviewer'] } } });
  });

  it('takes null for an unset field, as GraphQL clients send it: the id is then made from the name', async () => {
    const created = await gql(
      `mutation($input: CreateAgentInput!) { createAgent(input: $input) { id description icon model subAgents systemMessage { mode content } } }`,
      {
        input: {
          id: null,
          name: 'Null Fields',
          description: null,
          icon: null,
          model: null,
          systemMessage: { mode: null, content: 'Hi.' },
          subAgents: null,
        },
      },
    );
    expect(created.body).toEqual({
      data: {
        createAgent: { id: 'null-fields', description: '', icon: '', model: null, subAgents: [], systemMessage: { mode: 'append', content: 'Hi.' } },
      },
    });
    expect((await rest.del('/api/agents/null-fields')).status).toBe(200);
  });

  it("checks an editor's draft by the rules of saving, before it is saved", async () => {
    const check = (id: string | null, input: Record<string, unknown>) =>
      gql(
        `query($id: ID, $input: AgentFieldsInput!) { agentDraftCheck(id: $id, input: $input) { composable composableReasons subAgentProblems { id reason } } }`,
        {
          id,
          input,
        },
      );

    const plain = await check(null, { name: 'New', description: 'does things', systemMessage: { content: 'Hi.' } });
    expect(plain.body.data.agentDraftCheck).toEqual({ composable: true, composableReasons: [], subAgentProblems: [] });

    const lacking = await check(null, { name: 'New', tools: { custom: ['deploy'] } });
    expect(lacking.body.data.agentDraftCheck.composable).toBe(false);
    expect(lacking.body.data.agentDraftCheck.composableReasons).toEqual([
      expect.stringMatching(/^has custom tools \(deploy\)/),
      expect.stringMatching(/^has no prompt/),
      expect.stringMatching(/^has no description/),
    ]);

    // reviewer is made ineligible behind the editor's back: the draft of lead shows it, with the reason.
    const reviewer = (await rest.get('/api/agents/reviewer')).body;
    expect((await rest.put('/api/agents/reviewer', { ...reviewer, tools: { custom: ['x'], builtin: [], excluded_builtin: [] } })).status).toBe(200);
    const team = await check('lead', {
      name: 'Lead',
      description: 'leads',
      systemMessage: { content: 'Lead.' },
      subAgents: ['reviewer', 'ghost', 'lead'],
    });
    expect(team.body.data.agentDraftCheck.subAgentProblems).toEqual([
      { id: 'reviewer', reason: expect.stringMatching(/^reviewer has custom tools \(x\)/) },
      { id: 'ghost', reason: expect.stringMatching(/^no agent with id ghost exists/) },
      { id: 'lead', reason: expect.stringMatching(/cannot be its own sub-agent/) },
    ]);

    const bad = await check(null, { name: '' });
    expect(bad.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_input', statusCode: 400 });
    expect(bad.body.errors?.[0].message).toContain('name must not be empty');
  });

  it('exports the library as agent JSON files that import reads back', async () => {
    const reviewer = (await rest.get('/api/agents/reviewer')).body;
    expect((await rest.put('/api/agents/reviewer', { ...reviewer, tools: { custom: [], builtin: [], excluded_builtin: [] } })).status).toBe(200);
    const files = (await gql('{ agentFiles { name content } }')).body.data.agentFiles;
    expect(files.map((f: { name: string }) => f.name)).toEqual(['lead.json', 'lead-two.json', 'reviewer.json']);
    const imported = await gql('mutation($files: [AgentFileInput!]!) { importAgents(files: $files) { created updated unchanged } }', { files });
    expect(imported.body.data.importAgents).toEqual({ created: [], updated: [], unchanged: ['lead', 'lead-two', 'reviewer'] });
  });

  it('streams every change to the library, whoever makes it, and a read after it sees the change', async () => {
    const ws = graphqlWs(running.baseUrl, TOKEN);
    clients.push(ws);
    const changes = new GraphqlSubscription<{ agentLibraryChanged: { agentId: string; change: string; version: number } }>(
      ws,
      'subscription { agentLibraryChanged { agentId change version } }',
    ).start();
    // The subscription is live once a first change arrives; keep making one until it does.
    let probe = 0;
    const prober = setInterval(() => void rest.post('/api/agents', agent(`probe-${++probe}`)), 200);
    try {
      await changes.waitFor((values) => values.length > 0, 'the first change');
    } finally {
      clearInterval(prober);
    }
    const seen = changes.values.length;
    expect((await rest.post('/api/agents', agent('live'))).status).toBe(201);
    const live = (await rest.get('/api/agents/live')).body;
    expect((await rest.put('/api/agents/live', { ...live, description: 'changed' })).status).toBe(200);
    expect((await rest.del('/api/agents/live')).status).toBe(200);
    const values = await changes.waitFor((v) => v.filter((c) => c.agentLibraryChanged.agentId === 'live').length === 3, 'three changes to live');
    expect(values.slice(seen).filter((c) => c.agentLibraryChanged.agentId === 'live')).toEqual([
      { agentLibraryChanged: { agentId: 'live', change: 'created', version: 1 } },
      { agentLibraryChanged: { agentId: 'live', change: 'updated', version: 2 } },
      { agentLibraryChanged: { agentId: 'live', change: 'deleted', version: 3 } },
    ]);
    changes.stop();
  });

  it('refuses the library subscription without the token', async () => {
    const ws = graphqlWs(running.baseUrl);
    clients.push(ws);
    const refused = new GraphqlSubscription(ws, 'subscription { agentLibraryChanged { agentId } }').start();
    await refused.waitForEnd();
    expect(refused.errors).toEqual([expect.objectContaining({ closeCode: 4403 })]);
  });

  it('serves the schema the console is generated from (npm run web:schema prints the same)', async () => {
    const introspection = await gql(getIntrospectionQuery());
    const served = printSchema(lexicographicSortSchema(buildClientSchema(introspection.body.data as IntrospectionQuery)));
    expect(served + '\n').toBe(await printGraphqlSchema());
  });
});
