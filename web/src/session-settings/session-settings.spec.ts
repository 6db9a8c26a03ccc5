import { budgetOf, delegationOf, emptyBudget, policyOf, refusedKinds, settingsOf } from './session-settings';

const ORDER = ['shell', 'write', 'read', 'url', 'mcp', 'custom-tool', 'memory'];

describe("a session's settings from its agent's defaults", () => {
  it('delegates by default for a lead (an agent with sub-agents), unless the agent says otherwise', () => {
    expect(delegationOf({ subAgents: ['code-reviewer'] })).toBe(true);
    expect(delegationOf({ subAgents: [] })).toBe(false);
    expect(delegationOf({ subAgents: ['code-reviewer'], delegation: false })).toBe(false);
    expect(delegationOf({ subAgents: [], delegation: true })).toBe(true);
  });

  it('starts the new-session page from the resolved default, the editor from what the agent sets', () => {
    expect(settingsOf({ subAgents: ['x'] }, 'resolved').delegation).toBe(true);
    expect(settingsOf({ subAgents: ['x'] }, 'as-set').delegation).toBeUndefined();
    expect(settingsOf({ subAgents: ['x'], delegation: false }, 'as-set').delegation).toBe(false);
  });

  it("reads the agent's policy per kind (ask beats allow) and its budget, duration in seconds", () => {
    const draft = settingsOf(
      {
        subAgents: [],
        permissionPolicy: { allowKinds: ['read', 'mcp'], askKinds: ['mcp'], askTools: ['agent_run'] },
        budget: { maxRuns: 5, maxDurationMs: 90_000, maxTokens: null },
      },
      'resolved',
    );
    expect(draft.kinds).toEqual({ read: 'allow', mcp: 'ask' });
    expect(draft.askTools).toEqual(['agent_run']);
    expect(draft.budget).toEqual({ maxTokens: '', maxToolCalls: '', maxRuns: '5', maxDurationSeconds: '90', maxCost: '' });
  });

  it('sends the lists in the service’s kind order', () => {
    const draft = { ...settingsOf(undefined, 'resolved'), kinds: { memory: 'ask' as const, read: 'allow' as const, shell: 'deny' as const } };
    expect(policyOf(draft, ORDER)).toEqual({ allowKinds: ['read'], askKinds: ['memory'], askTools: [] });
  });
});

describe('the budget fields', () => {
  it('sends only the limits typed, the duration in milliseconds', () => {
    expect(budgetOf(emptyBudget())).toEqual({ problems: {} });
    expect(budgetOf({ ...emptyBudget(), maxRuns: ' 3 ', maxDurationSeconds: '1.5' })).toEqual({
      budget: { maxRuns: 3, maxDurationMs: 1500 },
      problems: {},
    });
  });

  it('sends a cost as the decimal typed, and loads an agent default cost back into the field', () => {
    expect(budgetOf({ ...emptyBudget(), maxCost: ' 2.50 ' })).toEqual({ budget: { maxCost: 2.5 }, problems: {} });
    expect(budgetOf({ ...emptyBudget(), maxCost: '0.005' }).budget).toEqual({ maxCost: 0.005 });
    const agent = { subAgents: [], budget: { maxTokens: null, maxCost: 1.25 } };
    expect(settingsOf(agent, 'resolved').budget).toEqual({ ...emptyBudget(), maxCost: '1.25' });
  });

  it('names a cost that is not a positive amount, and sends no budget', () => {
    for (const typed of ['0', '-1', 'lots', '1,5']) {
      const { budget, problems } = budgetOf({ ...emptyBudget(), maxCost: typed });
      expect(budget).toBeUndefined();
      expect(problems).toEqual({ maxCost: 'a positive amount, like 2.50' });
    }
  });

  it('names each field that is not a positive whole number, and sends none of them', () => {
    const { budget, problems } = budgetOf({ maxTokens: '-1', maxToolCalls: '2.5', maxRuns: 'many', maxDurationSeconds: '0', maxCost: '' });
    expect(budget).toBeUndefined();
    expect(Object.keys(problems).sort()).toEqual(['maxDurationSeconds', 'maxRuns', 'maxTokens', 'maxToolCalls']);
  });
});

describe("the operator's switches", () => {
  const options = [
    { kind: 'shell', description: 'run', allowed: false, refusedReason: 'acts on this host', enabledBy: 'SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true' },
    { kind: 'read', description: 'read', allowed: true },
  ];
  it('names a refused kind the draft still asks or allows, with what opens it; a denied one is no problem', () => {
    const draft = settingsOf(undefined, 'resolved');
    expect(refusedKinds({ ...draft, kinds: { shell: 'deny', read: 'ask' } }, options)).toEqual([]);
    expect(refusedKinds({ ...draft, kinds: { shell: 'ask' } }, options)).toEqual([
      'shell: acts on this host (SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true opens it)',
    ]);
  });
});
