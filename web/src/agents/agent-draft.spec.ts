import { draftOf, fieldOfProblem, inputOf } from './agent-draft';

const loaded = {
  id: 'lead',
  name: 'Lead',
  description: 'Leads',
  icon: '🧭',
  model: null,
  systemMessage: { mode: 'replace', content: 'You lead.' },
  tools: { custom: [], builtin: ['view'], excludedBuiltin: [] },
  mcpServers: ['github'],
  subAgents: ['reviewer'],
  allowedAgents: ['reviewer'],
  excludedAgents: null,
  hooks: [
    { type: 'preToolUse', url: 'https://hooks.example.com/pre', failure: 'closed' },
    { type: 'postToolUse', url: 'https://hooks.example.com/post', failure: null },
  ],
  delegation: null,
  permissionPolicy: { allowKinds: ['read'], askKinds: [], askTools: ['agent_run'] },
  budget: { maxTokens: null, maxToolCalls: null, maxRuns: 4, maxDurationMs: null, maxCost: 2.5 },
  workspace: { repository: '/srv/repos/shop', ref: null, merge: 'manual' },
  remoteA2a: null,
  includedIn: [],
  composable: false,
  composableReasons: [],
  version: 3,
};

describe('the editor draft', () => {
  it('sends back every field it loaded, the delegation policy it does not show and the hooks included', () => {
    expect(inputOf(draftOf(loaded))).toEqual({
      name: 'Lead',
      description: 'Leads',
      icon: '🧭',
      systemMessage: { mode: 'replace', content: 'You lead.' },
      model: null,
      tools: { builtin: ['view'], custom: [], excludedBuiltin: [] },
      mcpServers: ['github'],
      subAgents: ['reviewer'],
      allowedAgents: ['reviewer'],
      excludedAgents: null,
      hooks: [
        { type: 'preToolUse', url: 'https://hooks.example.com/pre', failure: 'closed' },
        { type: 'postToolUse', url: 'https://hooks.example.com/post' },
      ],
      delegation: null,
      permissionPolicy: { allowKinds: ['read'], askKinds: [], askTools: ['agent_run'] },
      budget: { maxRuns: 4, maxCost: 2.5 },
      workspace: { repository: '/srv/repos/shop', merge: 'manual' },
      remoteA2a: null,
    });
  });

  it("sends a remote agent's card with only what a remote agent may set: its prompt, tools, team and sessions are its service's", () => {
    const card = 'https://agents.example.com/a2a/researcher/.well-known/agent-card.json';
    expect(inputOf({ ...draftOf(loaded), remoteA2a: ` ${card} ` })).toEqual({
      name: 'Lead',
      description: 'Leads',
      icon: '🧭',
      remoteA2a: card,
      allowedAgents: ['reviewer'],
      excludedAgents: null,
      budget: { maxRuns: 4, maxCost: 2.5 },
    });
    expect(draftOf({ ...loaded, remoteA2a: card }).remoteA2a).toBe(card);
    expect(fieldOfProblem('remote.a2a')).toBe('remoteA2a');
  });

  it('sends session defaults left empty as unset: automatic delegation, the service’s policy, no budget', () => {
    const cleared = draftOf({ ...loaded, permissionPolicy: null, budget: null, workspace: null });
    expect(inputOf(cleared)).toMatchObject({ delegation: null, permissionPolicy: null, budget: null, workspace: null });
    const off = { ...cleared, sessionDefaults: { ...cleared.sessionDefaults, delegation: false, kinds: { 'custom-tool': 'ask' as const } } };
    expect(inputOf(off)).toMatchObject({ delegation: false, permissionPolicy: { allowKinds: [], askKinds: ['custom-tool'], askTools: [] } });
  });

  it('sends no hooks as unset, and a hook left on its default failure mode without one', () => {
    expect(inputOf({ ...draftOf(loaded), hooks: [] }).hooks).toBeNull();
    expect(inputOf({ ...draftOf({ ...loaded, hooks: null }) }).hooks).toBeNull();
    expect(inputOf({ ...draftOf(loaded), hooks: [{ type: 'sessionEnd', url: ' https://h.example.com/end ', failure: '' }] }).hooks).toEqual([
      { type: 'sessionEnd', url: 'https://h.example.com/end' },
    ]);
  });

  it('sends a blank model as unset (the service default)', () => {
    expect(inputOf({ ...draftOf(loaded), model: '  ' }).model).toBeNull();
    expect(inputOf({ ...draftOf(loaded), model: ' gpt-5 ' }).model).toBe('gpt-5');
  });

  it("puts the service's problem paths on the form's fields", () => {
    expect(fieldOfProblem('name')).toBe('name');
    expect(fieldOfProblem('system_message.content')).toBe('content');
    expect(fieldOfProblem('tools.custom.0')).toBe('custom');
    expect(fieldOfProblem('tools.excluded_builtin')).toBe('excludedBuiltin');
    expect(fieldOfProblem('sub_agents.2')).toBe('subAgents');
    expect(fieldOfProblem('id')).toBe('id');
    expect(fieldOfProblem('hooks[1].url')).toBe('hooks');
    expect(fieldOfProblem('hooks.0.type')).toBe('hooks');
    expect(fieldOfProblem('permission_policy.ask_kinds.0')).toBe('sessionDefaults');
    expect(fieldOfProblem('budget.max_runs')).toBe('sessionDefaults');
  });
});
