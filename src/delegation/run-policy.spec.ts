import fc from 'fast-check';
import {
  type DelegationRequest,
  delegationRefusal,
  type PolicyDefaults,
  type ResolvedRunPolicy,
  resolveRunPolicy,
  runPolicyInputSchema,
} from './run-policy';

const defaults: PolicyDefaults = { maxDepth: 3, maxConcurrentChildren: 4, timeoutMs: 600_000 };

function policy(overrides: Partial<ResolvedRunPolicy> = {}): ResolvedRunPolicy {
  return { allowedAgents: null, excludedAgents: [], maxDepth: 3, maxConcurrentChildren: 4, timeoutMs: 600_000, ...overrides };
}

function request(overrides: Partial<DelegationRequest> = {}): DelegationRequest {
  return { targetAgentId: 'tester', callerAgentId: 'lead', depth: 1, runningChildren: 0, ...overrides };
}

describe('resolveRunPolicy', () => {
  it('uses the defaults when neither the run nor the agent sets anything; allowed agents unset is null (any agent)', () => {
    expect(resolveRunPolicy(undefined, undefined, defaults)).toEqual<ResolvedRunPolicy>({
      allowedAgents: null,
      excludedAgents: [],
      maxDepth: 3,
      maxConcurrentChildren: 4,
      timeoutMs: 600_000,
    });
    expect(resolveRunPolicy({}, {}, defaults)).toEqual<ResolvedRunPolicy>({
      allowedAgents: null,
      excludedAgents: [],
      maxDepth: 3,
      maxConcurrentChildren: 4,
      timeoutMs: 600_000,
    });
  });

  it('projects the agent definition allowed/excluded agents when the run sets none', () => {
    expect(resolveRunPolicy({}, { allowed_agents: ['tester', 'writer'], excluded_agents: ['deployer'] }, defaults)).toEqual<ResolvedRunPolicy>({
      allowedAgents: ['tester', 'writer'],
      excludedAgents: ['deployer'],
      maxDepth: 3,
      maxConcurrentChildren: 4,
      timeoutMs: 600_000,
    });
  });

  it('lets the run input win over the agent definition, and over the defaults', () => {
    expect(
      resolveRunPolicy(
        { allowed_agents: ['reviewer'], excluded_agents: ['writer'], max_depth: 1, max_concurrent_children: 2, timeout_ms: 5_000 },
        { allowed_agents: ['tester', 'writer'], excluded_agents: ['deployer'] },
        defaults,
      ),
    ).toEqual<ResolvedRunPolicy>({
      allowedAgents: ['reviewer'],
      excludedAgents: ['writer'],
      maxDepth: 1,
      maxConcurrentChildren: 2,
      timeoutMs: 5_000,
    });
  });

  it('takes each field from the first source that sets it, field by field', () => {
    expect(
      resolveRunPolicy({ excluded_agents: ['a'], max_depth: 0 }, { allowed_agents: ['b'], excluded_agents: ['c'] }, defaults),
    ).toEqual<ResolvedRunPolicy>({
      allowedAgents: ['b'],
      excludedAgents: ['a'],
      maxDepth: 0,
      maxConcurrentChildren: 4,
      timeoutMs: 600_000,
    });
  });

  it('keeps an explicitly empty allowed list as "no agent allowed", not as unset', () => {
    expect(resolveRunPolicy({ allowed_agents: [] }, { allowed_agents: ['tester'] }, defaults).allowedAgents).toEqual([]);
    expect(resolveRunPolicy(undefined, { allowed_agents: [] }, defaults).allowedAgents).toEqual([]);
  });

  it('keeps zero limits from the run input instead of falling back to the defaults', () => {
    const resolved = resolveRunPolicy({ max_depth: 0, max_concurrent_children: 0 }, undefined, defaults);
    expect(resolved.maxDepth).toBe(0);
    expect(resolved.maxConcurrentChildren).toBe(0);
  });
});

describe('runPolicyInputSchema', () => {
  it('accepts a full policy and rejects unknown keys, non-slug agents and out-of-range limits', () => {
    // The JSON API's camelCase, turned into the stored snake_case policy (the old spelling is renamed before, at the HTTP edge).
    expect(runPolicyInputSchema.parse({ allowedAgents: ['code-reviewer'], maxDepth: 2, timeoutMs: 1000 })).toMatchObject({
      allowed_agents: ['code-reviewer'],
      max_depth: 2,
      timeout_ms: 1000,
    });
    expect(runPolicyInputSchema.safeParse({ max_depth: 2 }).success).toBe(false);
    expect(runPolicyInputSchema.safeParse({ allowedAgents: ['Code Reviewer'] }).success).toBe(false);
    expect(runPolicyInputSchema.safeParse({ maxDepth: 33 }).success).toBe(false);
    expect(runPolicyInputSchema.safeParse({ timeoutMs: 999 }).success).toBe(false);
  });
});

describe('delegationRefusal', () => {
  it('lets a delegation go ahead when every rule passes', () => {
    expect(delegationRefusal(policy({ allowedAgents: ['tester'], excludedAgents: ['deployer'] }), request())).toBeUndefined();
  });

  it('lets the API (no caller agent) start any agent', () => {
    expect(delegationRefusal(policy(), request({ callerAgentId: undefined, targetAgentId: 'lead' }))).toBeUndefined();
  });

  it('refuses self-delegation', () => {
    expect(delegationRefusal(policy(), request({ callerAgentId: 'tester', targetAgentId: 'tester' }))).toBe('tester cannot delegate to itself');
  });

  it('refuses an agent that is not among the allowed agents, listing them', () => {
    expect(delegationRefusal(policy({ allowedAgents: ['writer', 'reviewer'] }), request())).toBe(
      'tester is not among the allowed agents (writer, reviewer)',
    );
  });

  it('refuses every agent when the allowed list is empty, saying none', () => {
    expect(delegationRefusal(policy({ allowedAgents: [] }), request())).toBe('tester is not among the allowed agents (none)');
  });

  it('refuses an excluded agent, even when it is also allowed', () => {
    expect(delegationRefusal(policy({ excludedAgents: ['tester'] }), request())).toBe('tester is an excluded agent');
    expect(delegationRefusal(policy({ allowedAgents: ['tester'], excludedAgents: ['tester'] }), request())).toBe('tester is an excluded agent');
  });

  it('refuses a run deeper than the maximum depth, and allows one exactly at it', () => {
    expect(delegationRefusal(policy({ maxDepth: 2 }), request({ depth: 3 }))).toBe('the run would be at depth 3, deeper than the maximum of 2');
    expect(delegationRefusal(policy({ maxDepth: 2 }), request({ depth: 2 }))).toBeUndefined();
  });

  it('refuses when the caller already has the maximum of running children, and allows one below it', () => {
    expect(delegationRefusal(policy({ maxConcurrentChildren: 2 }), request({ runningChildren: 2 }))).toBe(
      'the caller already has 2 running child runs, the maximum is 2',
    );
    expect(delegationRefusal(policy({ maxConcurrentChildren: 2 }), request({ runningChildren: 3 }))).toBe(
      'the caller already has 3 running child runs, the maximum is 2',
    );
    expect(delegationRefusal(policy({ maxConcurrentChildren: 2 }), request({ runningChildren: 1 }))).toBeUndefined();
  });

  it('reports the first violated rule when several are', () => {
    expect(
      delegationRefusal(
        policy({ allowedAgents: ['writer'], excludedAgents: ['tester'], maxDepth: 0, maxConcurrentChildren: 0 }),
        request({ callerAgentId: 'tester', depth: 5, runningChildren: 9 }),
      ),
    ).toBe('tester cannot delegate to itself');
    expect(delegationRefusal(policy({ excludedAgents: ['tester'], maxDepth: 0 }), request({ depth: 5 }))).toBe('tester is an excluded agent');
  });

  it('refuses iff at least one rule is violated (property)', () => {
    const agents = ['lead', 'tester', 'writer', 'reviewer'];
    const agent = fc.constantFrom(...agents);
    const policyArb = fc.record({
      allowedAgents: fc.option(fc.subarray(agents), { nil: null }),
      excludedAgents: fc.subarray(agents),
      maxDepth: fc.integer({ min: 0, max: 5 }),
      maxConcurrentChildren: fc.integer({ min: 0, max: 5 }),
      timeoutMs: fc.constant(60_000),
    });
    const requestArb = fc.record({
      targetAgentId: agent,
      callerAgentId: fc.option(agent, { nil: undefined }),
      depth: fc.integer({ min: 0, max: 7 }),
      runningChildren: fc.integer({ min: 0, max: 7 }),
    });
    fc.assert(
      fc.property(policyArb, requestArb, (p, r) => {
        const violated =
          r.callerAgentId === r.targetAgentId ||
          (p.allowedAgents !== null && !p.allowedAgents.includes(r.targetAgentId)) ||
          p.excludedAgents.includes(r.targetAgentId) ||
          r.depth > p.maxDepth ||
          r.runningChildren >= p.maxConcurrentChildren;
        const refusal = delegationRefusal(p, r);
        expect(refusal !== undefined).toBe(violated);
        if (refusal !== undefined) expect(refusal.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });
});
