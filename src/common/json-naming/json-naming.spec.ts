import { camelCaseKeys, camelCaseOf, renameLegacyKeys } from './json-naming';

describe('JSON API naming', () => {
  it('spells snake_case keys in camelCase and leaves camelCase ones alone', () => {
    expect(camelCaseOf('parent_run_id')).toBe('parentRunId');
    expect(camelCaseOf('max_duration_ms')).toBe('maxDurationMs');
    expect(camelCaseOf('allowedAgents')).toBe('allowedAgents');
  });

  it('answers a run view in camelCase at every depth, values untouched', () => {
    const view = {
      run_id: 'r1',
      policy: { maxDepth: 2 },
      budget: { limits: { max_tokens: 10 }, used: { tool_calls: 1 } },
      stopped_by: { actor: 'budget', limit: 'max_tokens' },
      children: [{ kind: 'cli_subagent', tool_call_id: 't1' }],
      next_cursor: null,
    };
    expect(camelCaseKeys(view)).toEqual({
      runId: 'r1',
      policy: { maxDepth: 2 },
      budget: { limits: { maxTokens: 10 }, used: { toolCalls: 1 } },
      stoppedBy: { actor: 'budget', limit: 'max_tokens' },
      children: [{ kind: 'cli_subagent', toolCallId: 't1' }],
      nextCursor: null,
    });
  });

  it("keeps an opaque value's keys: a tool call's arguments are what the model wrote", () => {
    const approval = { tool_name: 'bash', arguments: { file_path: 'a.ts', nested: { old_str: 'x' } } };
    expect(camelCaseKeys(approval, new Set(['arguments']))).toEqual({ toolName: 'bash', arguments: { file_path: 'a.ts', nested: { old_str: 'x' } } });
  });

  it('renames the old spelling of request keys in scope and says which', () => {
    const body = { agent_id: 'a', prompt: 'p', policy: { max_depth: 1 }, budget: { maxRuns: 2, max_tokens: 5 }, tools: [{ parameters: { some_key: 1 } }] };
    const { value, renamed } = renameLegacyKeys(body, { topLevel: true, nested: ['policy', 'budget'] });
    expect(value).toEqual({
      agentId: 'a',
      prompt: 'p',
      policy: { maxDepth: 1 },
      budget: { maxRuns: 2, maxTokens: 5 },
      tools: [{ parameters: { some_key: 1 } }],
    });
    expect(renamed).toEqual([
      { from: 'agent_id', to: 'agentId' },
      { from: 'policy.max_depth', to: 'policy.maxDepth' },
      { from: 'budget.max_tokens', to: 'budget.maxTokens' },
    ]);
  });

  it('renames nothing outside its scope (a session body is camelCase but for its budget)', () => {
    const body = { agentId: 'a', some_unknown: 1, budget: { max_runs: 1 } };
    const { value, renamed } = renameLegacyKeys(body, { topLevel: false, nested: ['budget'] });
    expect(value).toEqual({ agentId: 'a', some_unknown: 1, budget: { maxRuns: 1 } });
    expect(renamed).toEqual([{ from: 'budget.max_runs', to: 'budget.maxRuns' }]);
  });

  it('leaves both spellings for the schema to refuse rather than dropping one silently', () => {
    const { value, renamed } = renameLegacyKeys({ agentId: 'new', agent_id: 'old' }, { topLevel: true, nested: [] });
    expect(value).toEqual({ agentId: 'new', agent_id: 'old' });
    expect(renamed).toEqual([]);
  });

  it('passes what is not an object through', () => {
    expect(renameLegacyKeys(undefined, { topLevel: true, nested: [] })).toEqual({ value: undefined, renamed: [] });
    expect(camelCaseKeys('run_id')).toBe('run_id');
  });
});

describe('a parsed query string (no prototype)', () => {
  it('has its old keys renamed too', () => {
    const query = Object.assign(Object.create(null) as Record<string, unknown>, { agent_id: 'a' });
    expect(renameLegacyKeys(query, { topLevel: true, nested: [] }).renamed).toEqual([{ from: 'agent_id', to: 'agentId' }]);
  });
});
