import { type RunningApp, startTestApp } from '../fixtures/app-fixture';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface Reply {
  status: number;
  body: Json;
}

/** The agent library over real HTTP, on a real SQLite file; no Copilot CLI is involved. */
function client(running: () => RunningApp) {
  const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const raw = typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(`${running().baseUrl}${path}`, {
      method,
      headers: raw === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: raw,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const api = {
    request,
    get: (path: string) => request('GET', path),
    post: (path: string, body: unknown) => request('POST', path, body),
    put: (path: string, body: unknown, headers: Record<string, string> = {}) => request('PUT', path, body, headers),
    del: (path: string, headers: Record<string, string> = {}) => request('DELETE', path, undefined, headers),
    /** The agent's stream as the event log shows it: [] when it does not exist (404). */
    async events(id: string): Promise<Json[]> {
      const reply = await request('GET', `/api/streams/agent-${id}/events`);
      if (reply.status === 404) return [];
      expect(reply.status).toBe(200);
      return reply.body.events;
    },
    async head(): Promise<number> {
      return (await request('GET', '/health')).body.database.headPosition;
    },
    async ids(): Promise<string[]> {
      const reply = await request('GET', '/api/agents');
      expect(reply.status).toBe(200);
      return reply.body.agents.map((a: Json) => a.id);
    },
    /** Nothing of this agent reached the read model or the log. */
    async expectNothingStored(id: string) {
      expect((await request('GET', `/api/agents/${id}`)).status).toBe(404);
      const stream = await request('GET', `/api/streams/agent-${id}/events`);
      expect(stream).toMatchObject({ status: 404, body: { code: 'not_found' } });
    },
  };
  return api;
}

/** A composable agent unless overridden. */
function agentBody(id: string, overrides: Json = {}): Json {
  return {
    id,
    name: `Agent ${id}`,
    description: `${id} does one thing well`,
    icon: '🤖',
    system_message: { mode: 'replace', content: `You are ${id}.` },
    tools: { custom: [], builtin: ['grep', 'view'], excluded_builtin: [] },
    mcp_servers: ['github'],
    ...overrides,
  };
}

function useApp() {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startTestApp();
  });
  afterAll(() => running.close());
  return client(() => running);
}

describe('agent library: create, read, update, delete', () => {
  const api = useApp();

  it('creates an agent, shows it, lists it, updates it and deletes it, each change an event', async () => {
    const created = await api.post('/api/agents', agentBody('code-reviewer', { model: 'claude-sonnet-4' }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: 'code-reviewer',
      name: 'Agent code-reviewer',
      description: 'code-reviewer does one thing well',
      icon: '🤖',
      system_message: { mode: 'replace', content: 'You are code-reviewer.' },
      model: 'claude-sonnet-4',
      tools: { custom: [], builtin: ['grep', 'view'], excluded_builtin: [] },
      mcp_servers: ['github'],
      sub_agents: [],
      created_at: expect.any(String),
      updated_at: created.body.created_at,
      version: 1,
      composable: true,
      composable_reasons: [],
      sub_agent_problems: [],
      included_in: [],
    });
    expect(new Date(created.body.created_at).toISOString()).toBe(created.body.created_at);

    expect(await api.get('/api/agents/code-reviewer')).toEqual({ status: 200, body: created.body });
    expect((await api.get('/api/agents')).body.agents).toEqual([created.body]);

    const changed = await api.put(
      '/api/agents/code-reviewer',
      agentBody('code-reviewer', { description: 'Reviews pull requests', model: 'claude-sonnet-4', icon: '🔍' }),
    );
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      id: 'code-reviewer',
      description: 'Reviews pull requests',
      icon: '🔍',
      version: 2,
      created_at: created.body.created_at,
    });
    expect(changed.body.updated_at >= created.body.updated_at).toBe(true);
    expect((await api.get('/api/agents/code-reviewer')).body).toEqual(changed.body);

    expect(await api.del('/api/agents/code-reviewer')).toEqual({ status: 200, body: { id: 'code-reviewer', deleted: true } });
    expect(await api.get('/api/agents/code-reviewer')).toMatchObject({
      status: 404,
      body: { code: 'not_found', message: 'Agent code-reviewer does not exist' },
    });
    expect(await api.ids()).not.toContain('code-reviewer');

    const events = await api.events('code-reviewer');
    expect(events.map((e: Json) => [e.type, e.streamPosition])).toEqual([
      ['agent.created', 1],
      ['agent.updated', 2],
      ['agent.deleted', 3],
    ]);
    expect(events[0].data).toEqual({
      id: 'code-reviewer',
      fields: {
        name: 'Agent code-reviewer',
        description: 'code-reviewer does one thing well',
        icon: '🤖',
        system_message: { mode: 'replace', content: 'You are code-reviewer.' },
        model: 'claude-sonnet-4',
        tools: { custom: [], builtin: ['grep', 'view'], excluded_builtin: [] },
        mcp_servers: ['github'],
        sub_agents: [],
      },
    });
    // Only what changed, with the new values.
    expect(events[1].data).toEqual({ id: 'code-reviewer', changes: { description: 'Reviews pull requests', icon: '🔍' } });
    expect(events[2].data).toEqual({ id: 'code-reviewer' });
  });

  it('derives the id from the name when none is given', async () => {
    const created = await api.post('/api/agents', { name: 'Build Health Monitor', description: 'Watches CI' });
    expect(created).toMatchObject({ status: 201, body: { id: 'build-health-monitor', name: 'Build Health Monitor' } });
    // Defaults for what was left out; without a prompt it cannot be a sub-agent, and says why.
    expect(created.body).toMatchObject({
      icon: '',
      system_message: { mode: 'append', content: '' },
      model: null,
      tools: { custom: [], builtin: [], excluded_builtin: [] },
      composable: false,
      composable_reasons: ['has no prompt; set system_message.content'],
    });
  });

  it('appends nothing for an update that changes nothing', async () => {
    const created = (await api.post('/api/agents', agentBody('steady'))).body;
    const same = await api.put('/api/agents/steady', { ...agentBody('steady'), created_at: 'ignored', updated_at: 'ignored' });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(created);
    expect((await api.events('steady')).map((e: Json) => e.type)).toEqual(['agent.created']);
  });

  it('answers 404 for an agent that does not exist, and stores nothing for it', async () => {
    expect((await api.get('/api/agents/ghost')).status).toBe(404);
    expect(await api.put('/api/agents/ghost', agentBody('ghost'))).toMatchObject({
      status: 404,
      body: { code: 'not_found', message: 'Agent ghost does not exist' },
    });
    expect(await api.del('/api/agents/ghost')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    await api.expectNothingStored('ghost');
  });

  it('creates a deleted agent again, on the same stream, with only the new fields', async () => {
    await api.post('/api/agents', agentBody('phoenix', { icon: '🔥', mcp_servers: ['github', 'ado'] }));
    await api.del('/api/agents/phoenix');
    const again = await api.post('/api/agents', agentBody('phoenix', { mcp_servers: [] }));
    expect(again).toMatchObject({ status: 201, body: { id: 'phoenix', icon: '🤖', mcp_servers: [], version: 3 } });
    expect((await api.events('phoenix')).map((e: Json) => e.type)).toEqual(['agent.created', 'agent.deleted', 'agent.created']);
    expect((await api.del('/api/agents/phoenix')).status).toBe(200);
    expect((await api.del('/api/agents/phoenix')).status).toBe(404);
  });
});

describe('agent library: composable agents (FR-7) and the sub-agent picker (FR-1 / FR-2)', () => {
  const api = useApp();
  const reasonsOf = (agents: Json[]) => Object.fromEntries(agents.map((a: Json) => [a.id, a.composable_reasons]));

  beforeAll(async () => {
    const bodies = [
      agentBody('reviewer'),
      agentBody('tester'),
      agentBody('tooly', { tools: { custom: ['deploy'], builtin: [], excluded_builtin: [] } }),
      agentBody('picky', { tools: { custom: [], builtin: [], excluded_builtin: ['shell'] } }),
      agentBody('mute', { system_message: { mode: 'append', content: '' } }),
      agentBody('vague', { description: '' }),
      agentBody('lead', { sub_agents: ['reviewer', 'tester'] }),
    ];
    for (const body of bodies) expect((await api.post('/api/agents', body)).status).toBe(201);
  });

  it('shows composable and the reasons on every agent of the library', async () => {
    const { agents } = (await api.get('/api/agents')).body;
    expect(agents.map((a: Json) => a.id)).toEqual(['lead', 'mute', 'picky', 'reviewer', 'tester', 'tooly', 'vague']);
    expect(Object.fromEntries(agents.map((a: Json) => [a.id, a.composable]))).toEqual({
      lead: false,
      mute: false,
      picky: false,
      reviewer: true,
      tester: true,
      tooly: false,
      vague: false,
    });
    expect(reasonsOf(agents)).toEqual({
      lead: ['has sub-agents of its own (reviewer, tester); sub-agents cannot be nested, clear its sub_agents'],
      mute: ['has no prompt; set system_message.content'],
      picky: ['excludes built-in tools (shell); sub-agents only support an allowlist, use tools.builtin instead of tools.excluded_builtin'],
      reviewer: [],
      tester: [],
      tooly: ['has custom tools (deploy); sub-agents cannot carry custom tools, remove them from tools.custom'],
      vague: ['has no description; the main agent picks sub-agents by their description, so set one'],
    });
    expect(agents.every((a: Json) => Array.isArray(a.sub_agent_problems) && a.sub_agent_problems.length === 0)).toBe(true);
    // The detail page shows the same.
    expect((await api.get('/api/agents/tooly')).body).toMatchObject({ composable: false, composable_reasons: reasonsOf(agents).tooly });
  });

  it('filters the library with ?composable=true and ?composable=false, and refuses other values', async () => {
    const composable = (await api.get('/api/agents?composable=true')).body.agents;
    expect(composable.map((a: Json) => a.id)).toEqual(['reviewer', 'tester']);
    expect(composable.every((a: Json) => a.composable === true)).toBe(true);
    expect((await api.get('/api/agents?composable=false')).body.agents.map((a: Json) => a.id)).toEqual(['lead', 'mute', 'picky', 'tooly', 'vague']);
    const bad = await api.get('/api/agents?composable=yes');
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_input' } });
    expect(bad.body.message).toMatch(/^composable: /);
  });

  it('lists the eligible sub-agents, leaving out the edited agent and agents that would make a cycle', async () => {
    const ids = async (query: string) => {
      const reply = await api.get(`/api/agents/eligible-sub-agents${query}`);
      expect(reply.status).toBe(200);
      return reply.body.agents.map((a: Json) => a.id);
    };
    expect(await ids('')).toEqual(['reviewer', 'tester']);
    expect(await ids('?exclude=lead')).toEqual(['reviewer', 'tester']);
    expect(await ids('?exclude=reviewer')).toEqual(['tester']);
    expect(await ids('?exclude=nobody-yet')).toEqual(['reviewer', 'tester']);

    // `boss` is composable except that it lists `solo`: offered to anyone but solo, where it would be a cycle.
    expect((await api.post('/api/agents', agentBody('solo'))).status).toBe(201);
    expect((await api.post('/api/agents', agentBody('boss', { sub_agents: ['solo'] }))).status).toBe(201);
    expect(await ids('?exclude=solo')).toEqual(['reviewer', 'tester']);
    expect(await ids('?exclude=boss')).toEqual(['reviewer', 'solo', 'tester']);
    const offered = (await api.get('/api/agents/eligible-sub-agents?exclude=boss')).body.agents;
    expect(offered.every((a: Json) => a.composable)).toBe(true);
    expect((await api.del('/api/agents/boss')).status).toBe(200);
    expect((await api.del('/api/agents/solo')).status).toBe(200);
  });
});

describe('agent library: saving with sub-agents that cannot be used (FR-1 / FR-6)', () => {
  const api = useApp();

  beforeAll(async () => {
    for (const body of [
      agentBody('helper'),
      agentBody('tooly', { tools: { custom: ['deploy'], builtin: [], excluded_builtin: [] } }),
      agentBody('parent', { sub_agents: ['helper'] }),
    ]) {
      expect((await api.post('/api/agents', body)).status).toBe(201);
    }
  });

  it('refuses a new agent naming unknown, ineligible and self sub-agents: 422, one problem per sub-agent, nothing stored', async () => {
    const head = await api.head();
    const refused = await api.post('/api/agents', agentBody('lead', { sub_agents: ['helper', 'ghost', 'tooly', 'lead', 'parent'] }));
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('invalid_sub_agents');
    expect(refused.body.details.problems).toEqual([
      { id: 'ghost', reason: 'no agent with id ghost exists; create it first or remove it from the list' },
      { id: 'tooly', reason: 'tooly has custom tools (deploy); sub-agents cannot carry custom tools, remove them from tools.custom' },
      { id: 'lead', reason: 'an agent cannot be its own sub-agent; remove it from sub_agents' },
      { id: 'parent', reason: 'parent has sub-agents of its own (helper); sub-agents cannot be nested, clear its sub_agents' },
    ]);
    expect(refused.body.message).toContain('Agent lead cannot use these sub-agents');
    await api.expectNothingStored('lead');
    expect(await api.head()).toBe(head);
    expect(await api.ids()).toEqual(['helper', 'parent', 'tooly']);
  });

  it('refuses an update that would make a cycle, and keeps the agent as it was', async () => {
    const before = (await api.get('/api/agents/helper')).body;
    const refused = await api.put('/api/agents/helper', agentBody('helper', { sub_agents: ['parent'] }));
    expect(refused).toMatchObject({ status: 422, body: { code: 'invalid_sub_agents' } });
    expect(refused.body.details.problems).toEqual([
      { id: 'parent', reason: 'parent lists helper as its own sub-agent, so helper -> parent -> helper would be a cycle; remove one of the two links' },
    ]);
    expect((await api.get('/api/agents/helper')).body).toEqual(before);
    expect((await api.events('helper')).map((e: Json) => e.type)).toEqual(['agent.created']);
  });

  it('refuses an update naming the agent itself', async () => {
    const refused = await api.put('/api/agents/parent', agentBody('parent', { sub_agents: ['helper', 'parent'] }));
    expect(refused.status).toBe(422);
    expect(refused.body.details.problems).toEqual([{ id: 'parent', reason: 'an agent cannot be its own sub-agent; remove it from sub_agents' }]);
    expect((await api.get('/api/agents/parent')).body.sub_agents).toEqual(['helper']);
  });

  it('refuses to re-create a deleted agent in a cycle with an agent that still lists it', async () => {
    expect((await api.post('/api/agents', agentBody('leaf'))).status).toBe(201);
    expect((await api.post('/api/agents', agentBody('trunk', { sub_agents: ['leaf'] }))).status).toBe(201);
    expect((await api.del('/api/agents/leaf')).status).toBe(200);
    const refused = await api.post('/api/agents', agentBody('leaf', { sub_agents: ['trunk'] }));
    expect(refused.status).toBe(422);
    expect(refused.body.details.problems).toEqual([
      { id: 'trunk', reason: 'trunk lists leaf as its own sub-agent, so leaf -> trunk -> leaf would be a cycle; remove one of the two links' },
    ]);
    expect((await api.get('/api/agents/leaf')).status).toBe(404);
    expect((await api.events('leaf')).map((e: Json) => e.type)).toEqual(['agent.created', 'agent.deleted']);
  });
});

describe('agent library: changing or deleting an agent that others use', () => {
  const api = useApp();

  it('allows deleting a sub-agent; its parent then shows the problem', async () => {
    expect((await api.post('/api/agents', agentBody('helper'))).status).toBe(201);
    expect((await api.post('/api/agents', agentBody('parent', { sub_agents: ['helper'] }))).status).toBe(201);
    expect((await api.del('/api/agents/helper')).status).toBe(200);

    const problem = { id: 'helper', reason: 'no agent with id helper exists; create it first or remove it from the list' };
    expect((await api.get('/api/agents/parent')).body.sub_agent_problems).toEqual([problem]);
    const listed = (await api.get('/api/agents')).body.agents.find((a: Json) => a.id === 'parent');
    expect(listed.sub_agent_problems).toEqual([problem]);
    // The parent's own definition is untouched.
    expect(listed.sub_agents).toEqual(['helper']);
    expect((await api.events('parent')).map((e: Json) => e.type)).toEqual(['agent.created']);
  });

  it('allows making a sub-agent ineligible; its parent shows why and cannot be saved until it drops it', async () => {
    expect((await api.post('/api/agents', agentBody('worker'))).status).toBe(201);
    expect((await api.post('/api/agents', agentBody('boss', { sub_agents: ['worker'] }))).status).toBe(201);
    const changed = await api.put('/api/agents/worker', agentBody('worker', { tools: { custom: ['deploy'], builtin: [], excluded_builtin: [] } }));
    expect(changed).toMatchObject({ status: 200, body: { composable: false } });

    expect((await api.get('/api/agents/boss')).body.sub_agent_problems).toEqual([
      { id: 'worker', reason: 'worker has custom tools (deploy); sub-agents cannot carry custom tools, remove them from tools.custom' },
    ]);
    const blocked = await api.put('/api/agents/boss', agentBody('boss', { sub_agents: ['worker'], description: 'a new description' }));
    expect(blocked).toMatchObject({ status: 422, body: { code: 'invalid_sub_agents', details: { problems: [{ id: 'worker' }] } } });
    expect((await api.get('/api/agents/boss')).body.description).toBe('boss does one thing well');

    const fixed = await api.put('/api/agents/boss', agentBody('boss', { sub_agents: [], description: 'a new description' }));
    expect(fixed).toMatchObject({ status: 200, body: { sub_agents: [], sub_agent_problems: [], description: 'a new description' } });
  });
});

describe('agent library: bad input is refused with 400 naming the field, and nothing is stored', () => {
  const api = useApp();

  async function expectRefused(reply: Reply, field: RegExp) {
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('invalid_input');
    expect(reply.body.message).toMatch(field);
  }

  it('refuses a prompt over 100000 characters, and accepts one of exactly 100000', async () => {
    const head = await api.head();
    const tooLong = await api.post('/api/agents', agentBody('wordy', { system_message: { mode: 'replace', content: 'x'.repeat(100_001) } }));
    await expectRefused(tooLong, /system_message\.content: system_message\.content must be at most 100000 characters/);
    await api.expectNothingStored('wordy');
    expect(await api.head()).toBe(head);

    const justFits = await api.post('/api/agents', agentBody('wordy', { system_message: { mode: 'replace', content: 'x'.repeat(100_000) } }));
    expect(justFits.status).toBe(201);
    expect(justFits.body.system_message.content).toHaveLength(100_000);
    const grown = await api.put('/api/agents/wordy', agentBody('wordy', { system_message: { mode: 'replace', content: 'y'.repeat(100_001) } }));
    await expectRefused(grown, /system_message\.content/);
    expect((await api.get('/api/agents/wordy')).body.system_message.content).toBe('x'.repeat(100_000));
  });

  it('refuses a body that is not JSON', async () => {
    const head = await api.head();
    for (const raw of ['{"id": "broken", "name": "Broken",', '{id: broken}', 'not json']) {
      const reply = await api.request('POST', '/api/agents', raw);
      expect(reply).toMatchObject({ status: 400, body: { code: 'invalid_input' } });
      expect(reply.body.message).toMatch(/JSON/);
    }
    await api.expectNothingStored('broken');
    expect(await api.head()).toBe(head);
  });

  it('refuses wrong types, naming each field', async () => {
    const head = await api.head();
    await expectRefused(await api.post('/api/agents', agentBody('typed', { name: 42 })), /^name: /);
    await expectRefused(await api.post('/api/agents', agentBody('typed', { sub_agents: 'helper' })), /^sub_agents: /);
    await expectRefused(
      await api.post('/api/agents', agentBody('typed', { tools: { custom: [], builtin: [7], excluded_builtin: [] } })),
      /^tools\.builtin\.0: /,
    );
    await expectRefused(
      await api.post('/api/agents', agentBody('typed', { system_message: { mode: 'prepend', content: 'p' } })),
      /^system_message\.mode: /,
    );
    await expectRefused(await api.post('/api/agents', agentBody('typed', { model: 3 })), /^model: /);
    const both = await api.post('/api/agents', agentBody('typed', { icon: 1, mcp_servers: {} }));
    await expectRefused(both, /icon: /);
    expect(both.body.details.problems).toHaveLength(2);
    expect(both.body.message).toMatch(/mcp_servers: /);
    await expectRefused(await api.request('POST', '/api/agents', '[]'), /^value: /);
    await api.expectNothingStored('typed');
    expect(await api.head()).toBe(head);
  });

  it('refuses unknown fields, at the top and nested', async () => {
    await expectRefused(await api.post('/api/agents', agentBody('extra', { colour: 'red' })), /colour/);
    await expectRefused(await api.post('/api/agents', agentBody('extra', { tools: { custom: [], builtin: [], allowed: ['grep'] } })), /tools.*allowed/);
    await expectRefused(
      await api.post('/api/agents', agentBody('extra', { system_message: { mode: 'append', content: 'p', role: 'system' } })),
      /system_message.*role/,
    );
    await api.expectNothingStored('extra');
  });

  it('refuses an id that is not a slug, in the body and among sub_agents', async () => {
    for (const id of ['Code Reviewer', 'code_reviewer', '-lead', 'lead-', 'a--b', 'x'.repeat(65), '']) {
      await expectRefused(await api.post('/api/agents', agentBody(id)), /^id: /);
    }
    await expectRefused(await api.post('/api/agents', agentBody('slugs', { sub_agents: ['ok', 'Not OK'] })), /^sub_agents\.1: must be a slug/);
    expect(await api.ids()).toEqual(['wordy']);
  });

  it('refuses a bad update body and keeps the agent as it was', async () => {
    expect((await api.post('/api/agents', agentBody('kept'))).status).toBe(201);
    const before = (await api.get('/api/agents/kept')).body;
    await expectRefused(await api.put('/api/agents/kept', agentBody('kept', { tools: 'all' })), /^tools: /);
    await expectRefused(await api.put('/api/agents/kept', agentBody('kept', { unknown: true })), /unknown/);
    expect((await api.request('PUT', '/api/agents/kept', '{"name": ')).status).toBe(400);
    expect((await api.get('/api/agents/kept')).body).toEqual(before);
    expect((await api.events('kept')).map((e: Json) => e.type)).toEqual(['agent.created']);
  });
});

describe('agent library: conflicts', () => {
  const api = useApp();

  it('refuses a second create of the same id with 409, keeping the first', async () => {
    expect((await api.post('/api/agents', agentBody('twin'))).status).toBe(201);
    const second = await api.post('/api/agents', agentBody('twin', { description: 'the other one' }));
    expect(second).toMatchObject({ status: 409, body: { code: 'agent_exists' } });
    expect(second.body.message).toContain('Agent twin already exists');
    expect((await api.get('/api/agents/twin')).body.description).toBe('twin does one thing well');
    expect((await api.events('twin')).map((e: Json) => e.type)).toEqual(['agent.created']);
  });

  it('lets exactly one of several simultaneous creates of an id win', async () => {
    const replies = await Promise.all([1, 2, 3, 4, 5].map((n) => api.post('/api/agents', agentBody('racer', { description: `racer ${n}` }))));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    // The losers decided again against the winner's agent (handleCommand's retry), so they are told why.
    expect(replies.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(['agent_exists', 'agent_exists', 'agent_exists', 'agent_exists']);
    const winner = replies.find((r) => r.status === 201)!.body;
    expect((await api.get('/api/agents/racer')).body.description).toBe(winner.description);
    expect((await api.events('racer')).map((e: Json) => e.type)).toEqual(['agent.created']);
  });

  it('guards PUT with If-Match: stale -> 409 and nothing changes, current -> 200', async () => {
    const v1 = (await api.post('/api/agents', agentBody('guarded'))).body;
    expect(v1.version).toBe(1);
    const v2 = await api.put('/api/agents/guarded', agentBody('guarded', { icon: '2' }), { 'if-match': '1' });
    expect(v2).toMatchObject({ status: 200, body: { version: 2, icon: '2' } });

    // Someone still holding version 1.
    const stale = await api.put('/api/agents/guarded', agentBody('guarded', { icon: 'lost update' }), { 'if-match': '1' });
    expect(stale).toMatchObject({ status: 409, body: { code: 'expected_version_conflict', details: { expected: 1, actual: 2 } } });
    expect((await api.get('/api/agents/guarded')).body).toMatchObject({ version: 2, icon: '2' });

    // Stale even when the body changes nothing: the caller did not see version 2.
    expect((await api.put('/api/agents/guarded', agentBody('guarded', { icon: '2' }), { 'if-match': '1' })).status).toBe(409);

    // ETag-style quoting is accepted.
    const v3 = await api.put('/api/agents/guarded', agentBody('guarded', { icon: '3' }), { 'if-match': '"2"' });
    expect(v3).toMatchObject({ status: 200, body: { version: 3, icon: '3' } });
    expect((await api.put('/api/agents/guarded', agentBody('guarded', { icon: '4' }), { 'if-match': 'W/"3"' })).status).toBe(200);

    for (const bad of ['latest', '0', '1.5']) {
      const reply = await api.put('/api/agents/guarded', agentBody('guarded', { icon: 'x' }), { 'if-match': bad });
      expect(reply).toMatchObject({ status: 400, body: { code: 'invalid_input' } });
      expect(reply.body.message).toContain('If-Match');
    }
    expect((await api.events('guarded')).map((e: Json) => e.data.changes?.icon)).toEqual([undefined, '2', '3', '4']);
  });

  it('guards DELETE with If-Match', async () => {
    await api.post('/api/agents', agentBody('doomed'));
    await api.put('/api/agents/doomed', agentBody('doomed', { icon: 'v2' }));
    expect(await api.del('/api/agents/doomed', { 'if-match': '1' })).toMatchObject({ status: 409, body: { code: 'expected_version_conflict' } });
    expect((await api.get('/api/agents/doomed')).status).toBe(200);
    expect((await api.del('/api/agents/doomed', { 'if-match': '2' })).status).toBe(200);
    expect((await api.get('/api/agents/doomed')).status).toBe(404);
  });

  it("refuses a PUT whose body id differs from the path's with 400", async () => {
    await api.post('/api/agents', agentBody('fixed-id'));
    const reply = await api.put('/api/agents/fixed-id', agentBody('other-id', { icon: 'x' }));
    expect(reply).toMatchObject({ status: 400, body: { code: 'invalid_input' } });
    expect(reply.body.message).toContain('other-id');
    expect(reply.body.message).toContain('fixed-id');
    await api.expectNothingStored('other-id');
    expect((await api.get('/api/agents/fixed-id')).body).toMatchObject({ version: 1, icon: '🤖' });
    // The same id in the body is fine.
    expect((await api.put('/api/agents/fixed-id', agentBody('fixed-id', { icon: 'y' }))).status).toBe(200);
  });
});

describe('agent library: import and export of agent files', () => {
  const api = useApp();
  const file = (name: string, json: Json) => ({ name, content: `${JSON.stringify(json, null, 2)}\n` });
  // The lead comes first: references to agents later in the same import are fine.
  const folder = [
    file('engineering-lead.json', agentBody('engineering-lead', { sub_agents: ['code-reviewer', 'test-writer'], description: 'Leads' })),
    file('code-reviewer.json', { ...agentBody('code-reviewer'), id: undefined, name: 'Code Reviewer' }),
    file('test-writer.json', agentBody('test-writer', { created_at: '2020-01-01T00:00:00.000Z', updated_at: '2020-01-02T00:00:00.000Z' })),
  ];

  it('imports a folder of agents that reference each other', async () => {
    const reply = await api.post('/api/agents/import', { files: folder });
    expect(reply).toEqual({ status: 200, body: { created: ['engineering-lead', 'code-reviewer', 'test-writer'], updated: [], unchanged: [] } });
    expect(await api.ids()).toEqual(['code-reviewer', 'engineering-lead', 'test-writer']);
    const lead = (await api.get('/api/agents/engineering-lead')).body;
    expect(lead).toMatchObject({ sub_agents: ['code-reviewer', 'test-writer'], sub_agent_problems: [], description: 'Leads', composable: false });
    expect((await api.get('/api/agents/code-reviewer')).body).toMatchObject({ name: 'Code Reviewer', composable: true });
    // Timestamps are the library's, not the file's.
    expect((await api.get('/api/agents/test-writer')).body.created_at).not.toBe('2020-01-01T00:00:00.000Z');
    expect((await api.events('test-writer')).map((e: Json) => e.type)).toEqual(['agent.created']);
  });

  it('reports a re-import of the same files as unchanged and appends nothing', async () => {
    const head = await api.head();
    const reply = await api.post('/api/agents/import', { files: folder });
    expect(reply).toEqual({ status: 200, body: { created: [], updated: [], unchanged: ['engineering-lead', 'code-reviewer', 'test-writer'] } });
    expect(await api.head()).toBe(head);
  });

  it('updates what changed, with only the changed fields in the event', async () => {
    const changed = [folder[0], file('code-reviewer.json', { ...agentBody('code-reviewer'), id: undefined, name: 'Code Reviewer', icon: '🔍' })];
    const reply = await api.post('/api/agents/import', { files: changed });
    expect(reply.body).toEqual({ created: [], updated: ['code-reviewer'], unchanged: ['engineering-lead'] });
    const events = await api.events('code-reviewer');
    expect(events.map((e: Json) => e.type)).toEqual(['agent.created', 'agent.updated']);
    expect(events[1].data).toEqual({ id: 'code-reviewer', changes: { icon: '🔍' } });
    // Back to the folder's version for the tests below.
    expect((await api.post('/api/agents/import', { files: folder })).body.updated).toEqual(['code-reviewer']);
  });

  it('keeps the delegation policy through export and import, and a PUT without it clears it', async () => {
    const policy = { allowed_agents: ['code-reviewer'], excluded_agents: ['test-writer'] };
    expect((await api.post('/api/agents', agentBody('policy-lead', policy))).status).toBe(201);
    const exported = (await api.get('/api/agents/export')).body.files.find((f: Json) => f.name === 'policy-lead.json');
    expect(JSON.parse(exported.content)).toMatchObject(policy);

    // Cleared by a PUT that leaves the fields out: the agent is back to "may start any agent".
    expect((await api.put('/api/agents/policy-lead', agentBody('policy-lead'))).status).toBe(200);
    const cleared = (await api.get('/api/agents/policy-lead')).body;
    expect(cleared).not.toHaveProperty('allowed_agents');
    expect(cleared).not.toHaveProperty('excluded_agents');

    // The exported file brings the policy back, as an update of just those fields.
    expect((await api.post('/api/agents/import', { files: [exported] })).body.updated).toEqual(['policy-lead']);
    expect((await api.get('/api/agents/policy-lead')).body).toMatchObject(policy);
    expect((await api.del('/api/agents/policy-lead')).status).toBe(200);
  });

  it('refuses a folder with one file of broken JSON, naming the file and line, and imports nothing', async () => {
    const before = (await api.get('/api/agents')).body;
    const head = await api.head();
    const broken = { name: 'broken.json', content: '{\n  "id": "broken",\n  "name": "Broken",\n  "description": oops,\n  "icon": ""\n}\n' };
    const reply = await api.post('/api/agents/import', {
      files: [file('new-one.json', agentBody('new-one')), broken, file('code-reviewer.json', agentBody('code-reviewer', { icon: 'changed' }))],
    });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe('invalid_agent_files');
    expect(reply.body.details.problems).toEqual([{ file: 'broken.json', line: 4, message: expect.stringMatching(/^invalid JSON: /) }]);
    expect(reply.body.message).toMatch(/^Nothing was imported: broken\.json:4: invalid JSON/);
    expect((await api.get('/api/agents')).body).toEqual(before);
    expect(await api.head()).toBe(head);
    await api.expectNothingStored('new-one');
    await api.expectNothingStored('broken');
  });

  it('refuses a folder with a bad sub-agent reference, naming the file and the line, and imports nothing', async () => {
    const before = (await api.get('/api/agents')).body;
    const head = await api.head();
    const reply = await api.post('/api/agents/import', {
      files: [file('new-two.json', agentBody('new-two')), file('team.json', agentBody('team', { sub_agents: ['new-two', 'ghost', 'engineering-lead'] }))],
    });
    expect(reply.status).toBe(422);
    const content = file('team.json', agentBody('team', { sub_agents: ['new-two', 'ghost', 'engineering-lead'] })).content;
    const lineOf = (needle: string) => content.split('\n').findIndex((l) => l.includes(needle)) + 1;
    expect(reply.body.details.problems).toEqual([
      { file: 'team.json', line: lineOf('"ghost"'), message: 'sub_agents: no agent with id ghost exists; create it first or remove it from the list' },
      {
        file: 'team.json',
        line: lineOf('"engineering-lead"'),
        message: expect.stringContaining('sub_agents: engineering-lead has sub-agents of its own'),
      },
    ]);
    expect(lineOf('"ghost"')).toBeGreaterThan(1);
    expect((await api.get('/api/agents')).body).toEqual(before);
    expect(await api.head()).toBe(head);
    await api.expectNothingStored('new-two');
    await api.expectNothingStored('team');
  });

  it('refuses files that break the schema or define one id twice, naming the files', async () => {
    const before = await api.ids();
    const reply = await api.post('/api/agents/import', {
      files: [
        file('a.json', agentBody('dup')),
        file('b.json', agentBody('dup')),
        file('c.json', agentBody('typo', { tools: { custom: [], builtin: [], excluded: [] } })),
      ],
    });
    expect(reply.status).toBe(422);
    expect(reply.body.details.problems).toEqual([
      { file: 'b.json', message: 'agent id dup is also defined in a.json' },
      { file: 'c.json', message: expect.stringMatching(/tools.*excluded/) },
    ]);
    expect(await api.ids()).toEqual(before);
    await api.expectNothingStored('dup');
  });

  it('refuses a malformed import request with 400', async () => {
    await expect(api.post('/api/agents/import', {})).resolves.toMatchObject({ status: 400, body: { message: expect.stringMatching(/^files: /) } });
    await expect(api.post('/api/agents/import', { files: [] })).resolves.toMatchObject({ status: 400 });
    await expect(api.post('/api/agents/import', { files: [{ name: 'x.json' }] })).resolves.toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^files\.0\.content: /) },
    });
  });

  it('exports every agent as <id>.json files that import back identically', async () => {
    const exported = await api.get('/api/agents/export');
    expect(exported.status).toBe(200);
    const { files } = exported.body;
    expect(files.map((f: Json) => f.name)).toEqual(['code-reviewer.json', 'engineering-lead.json', 'test-writer.json']);
    for (const f of files) {
      expect(f.content.endsWith('}\n')).toBe(true);
      const json = JSON.parse(f.content);
      const view = (await api.get(`/api/agents/${json.id}`)).body;
      const { version: _v, composable: _c, composable_reasons: _r, sub_agent_problems: _p, included_in: _i, ...definition } = view;
      expect(json).toEqual(definition);
      expect(f.name).toBe(`${json.id}.json`);
    }

    // Into the same library: nothing to do.
    expect((await api.post('/api/agents/import', { files })).body).toEqual({
      created: [],
      updated: [],
      unchanged: ['code-reviewer', 'engineering-lead', 'test-writer'],
    });

    // Into an empty library: the same agents, and an export of it is the same text but for the timestamps.
    const other = await startTestApp();
    try {
      const otherApi = client(() => other);
      expect((await otherApi.post('/api/agents/import', { files })).body.created).toEqual(['code-reviewer', 'engineering-lead', 'test-writer']);
      const again = (await otherApi.get('/api/agents/export')).body.files;
      const withoutTimes = (fs: Json[]) =>
        fs.map((f: Json) => ({ name: f.name, content: f.content.replace(/"(created|updated)_at": "[^"]*"/g, '"$1_at": "T"') }));
      expect(withoutTimes(again)).toEqual(withoutTimes(files));
      expect((await otherApi.get('/api/agents/engineering-lead')).body.sub_agent_problems).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
