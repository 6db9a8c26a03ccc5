import type { AgentDefinition, AgentFields } from './agent-definition';
import { compositionProblems, remoteAgentProblems, subAgentProblems } from './agent-eligibility';

function agent(id: string, overrides: Partial<AgentFields> = {}): AgentDefinition {
  return {
    id,
    name: id,
    description: `${id} does one thing well`,
    icon: '',
    system_message: { mode: 'replace', content: `You are ${id}.` },
    model: null,
    tools: { custom: [], builtin: ['grep'], excluded_builtin: [] },
    mcp_servers: [],
    sub_agents: [],
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const tools = (t: Partial<AgentFields['tools']>): AgentFields['tools'] => ({ custom: [], builtin: [], excluded_builtin: [], ...t });

function library(...agents: AgentDefinition[]) {
  const byId = new Map(agents.map((a) => [a.id, a]));
  return (id: string) => byId.get(id);
}

describe('compositionProblems (FR-2 / FR-7)', () => {
  it('finds nothing wrong with a fully eligible agent', () => {
    expect(compositionProblems(agent('code-reviewer'))).toEqual([]);
    // Built-in allowlist, MCP servers, a model and either prompt mode are all fine for a sub-agent.
    expect(
      compositionProblems(
        agent('x', {
          tools: tools({ builtin: ['grep', 'view'] }),
          mcp_servers: ['github'],
          model: 'gpt-4.1',
          system_message: { mode: 'append', content: 'p' },
        }),
      ),
    ).toEqual([]);
  });

  it('refuses custom tools, naming them and what to change', () => {
    const problems = compositionProblems(agent('x', { tools: tools({ custom: ['deploy', 'page-oncall'] }) }));
    expect(problems).toEqual(['has custom tools (deploy, page-oncall); sub-agents cannot carry custom tools, remove them from tools.custom']);
  });

  it('refuses excluded built-in tools, pointing at the allowlist instead', () => {
    const problems = compositionProblems(agent('x', { tools: tools({ excluded_builtin: ['shell'] }) }));
    expect(problems).toEqual([
      'excludes built-in tools (shell); sub-agents only support an allowlist, use tools.builtin instead of tools.excluded_builtin',
    ]);
  });

  it('refuses an agent that has sub-agents of its own (no nesting)', () => {
    const problems = compositionProblems(agent('lead', { sub_agents: ['a', 'b'] }));
    expect(problems).toEqual(['has sub-agents of its own (a, b); sub-agents cannot be nested, clear its sub_agents']);
  });

  it('refuses an agent without a prompt, also when the prompt is only blanks', () => {
    for (const content of ['', '  \n\t ']) {
      expect(compositionProblems(agent('x', { system_message: { mode: 'replace', content } }))).toEqual(['has no prompt; set system_message.content']);
    }
  });

  it('refuses an agent without a description, also when it is only blanks', () => {
    for (const description of ['', '   ']) {
      expect(compositionProblems(agent('x', { description }))).toEqual([
        'has no description; the main agent picks sub-agents by their description, so set one',
      ]);
    }
  });

  it('lists every rule an agent breaks, in the FR-2 order', () => {
    const problems = compositionProblems(
      agent('x', {
        tools: tools({ custom: ['c'], excluded_builtin: ['e'] }),
        sub_agents: ['s'],
        system_message: { mode: 'append', content: '' },
        description: '',
      }),
    );
    expect(problems).toHaveLength(5);
    expect(problems.map((p) => p.split(' (')[0].split(';')[0])).toEqual([
      'has custom tools',
      'excludes built-in tools',
      'has sub-agents of its own',
      'has no prompt',
      'has no description',
    ]);
  });
});

describe('subAgentProblems (FR-1 / FR-5 / FR-6)', () => {
  it('accepts composable agents that exist', () => {
    const lookup = library(agent('lead'), agent('reviewer'), agent('tester'));
    expect(subAgentProblems('lead', ['reviewer', 'tester'], lookup)).toEqual([]);
    expect(subAgentProblems('lead', [], lookup)).toEqual([]);
  });

  // One list entry, one problem: [what, the owner, the list, the library, the problem].
  it.each([
    ['names an unknown id', 'lead', ['ghost'], [agent('lead')], 'no agent with id ghost exists; create it first or remove it from the list'],
    ['refuses the agent itself', 'lead', ['lead'], [agent('lead')], 'an agent cannot be its own sub-agent; remove it from sub_agents'],
    [
      'refuses a cycle a -> b -> a with one entry, not also "has sub-agents of its own"',
      'b',
      ['a'],
      [agent('a', { sub_agents: ['b'] }), agent('b')],
      'a lists b as its own sub-agent, so b -> a -> b would be a cycle; remove one of the two links',
    ],
    [
      'refuses a sub-agent that has sub-agents of its own (other than the owner)',
      'top',
      ['mid'],
      [agent('mid', { sub_agents: ['leaf'] }), agent('leaf')],
      'mid has sub-agents of its own (leaf); sub-agents cannot be nested, clear its sub_agents',
    ],
  ])('%s', (_what, owner, ids, agents, reason) => {
    expect(subAgentProblems(owner, ids, library(...agents))).toEqual([{ id: ids[0], reason }]);
  });

  it('reports a sub-agent listed twice once, as a duplicate', () => {
    const problems = subAgentProblems('lead', ['reviewer', 'tester', 'reviewer'], library(agent('reviewer'), agent('tester')));
    expect(problems).toEqual([{ id: 'reviewer', reason: 'reviewer is listed twice; list each sub-agent once' }]);
  });

  it('gives an ineligible sub-agent one entry per reason, each naming its id', () => {
    const lookup = library(agent('tooly', { tools: tools({ custom: ['deploy'], excluded_builtin: ['shell'] }), description: '' }), agent('fine'));
    const problems = subAgentProblems('lead', ['fine', 'tooly'], lookup);
    expect(problems).toEqual([
      { id: 'tooly', reason: 'tooly has custom tools (deploy); sub-agents cannot carry custom tools, remove them from tools.custom' },
      {
        id: 'tooly',
        reason: 'tooly excludes built-in tools (shell); sub-agents only support an allowlist, use tools.builtin instead of tools.excluded_builtin',
      },
      { id: 'tooly', reason: 'tooly has no description; the main agent picks sub-agents by their description, so set one' },
    ]);
  });

  it('reports every offending id of a list, in list order', () => {
    const lookup = library(agent('lead'), agent('ok'), agent('bad', { system_message: { mode: 'append', content: '' } }));
    expect(subAgentProblems('lead', ['ghost', 'ok', 'lead', 'bad'], lookup).map((p) => p.id)).toEqual(['ghost', 'lead', 'bad']);
  });

  it('without an owner (a session with no stored agent) checks existence and eligibility only', () => {
    const lookup = library(agent('a', { sub_agents: ['b'] }), agent('b'));
    expect(subAgentProblems(undefined, ['b'], lookup)).toEqual([]);
    expect(subAgentProblems(undefined, ['a'], lookup)).toEqual([
      { id: 'a', reason: 'a has sub-agents of its own (b); sub-agents cannot be nested, clear its sub_agents' },
    ]);
  });
});

describe('remote agents (issue 43)', () => {
  const CARD = 'https://agents.example.com/a2a/researcher/.well-known/agent-card.json';
  const remote = (overrides: Partial<AgentFields> = {}) =>
    agent('researcher', { system_message: { mode: 'append', content: '' }, tools: tools({}), remote: { a2a: CARD }, ...overrides });

  it("is composable with a description alone: its prompt and tools are its service's", () => {
    expect(compositionProblems(remote())).toEqual([]);
    expect(compositionProblems(remote({ description: ' ' }))).toEqual([
      'has no description; the main agent picks sub-agents by their description, so set one',
    ]);
  });

  it('may not set what configures an agent running here, each field named with what to do', () => {
    expect(remoteAgentProblems(remote())).toEqual([]);
    expect(
      remoteAgentProblems(
        remote({
          system_message: { mode: 'append', content: 'You research.' },
          model: 'gpt-4.1',
          tools: tools({ builtin: ['grep'] }),
          sub_agents: ['writer'],
          permission_policy: { allow_kinds: ['read'], ask_kinds: [], ask_tools: [] },
        }),
      ),
    ).toEqual(
      ['system_message.content', 'model', 'tools', 'sub_agents', 'permission_policy'].map(
        (field) => `${field} configures an agent that runs here, but this agent runs on its remote service (remote.a2a); clear ${field}`,
      ),
    );
    expect(remoteAgentProblems(agent('local', { sub_agents: ['writer'] }))).toEqual([]);
  });
});
