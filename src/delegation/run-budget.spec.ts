import { breachOf, budgetView, exhaustion, modelCallAdmission, narrowBudget, newWarnings, runBudgetInputSchema, toRunBudget } from './run-budget';

const use = (over: Partial<{ tokens: number; tool_calls: number; runs: number; duration_ms: number; cost: number }> = {}) => ({
  tokens: 0,
  tool_calls: 0,
  runs: 0,
  duration_ms: 0,
  cost: 0,
  ...over,
});

describe('run budgets', () => {
  it('accepts any subset of positive integers and refuses anything else', () => {
    expect(runBudgetInputSchema.safeParse({ max_tokens: 10 }).success).toBe(true);
    expect(runBudgetInputSchema.safeParse({ max_runs: 2, max_duration_ms: 1000, max_tool_calls: 3 }).success).toBe(true);
    expect(runBudgetInputSchema.safeParse({ max_cost: 0.25 }).success).toBe(true);
    for (const bad of [
      {},
      { max_tokens: 0 },
      { max_tokens: -1 },
      { max_tokens: 1.5 },
      { max_tokens: '5' },
      { max_cost: 0 },
      { max_cost: -1 },
      { max_cost: '1' },
      { maxCost: 1 },
    ]) {
      expect(runBudgetInputSchema.safeParse(bad).success).toBe(false);
    }
  });

  it("narrows a child's budget to what each covering budget has left, never widening it", () => {
    const parent = { budget: { max_tokens: 1000, max_runs: 3 }, used: use({ tokens: 400, runs: 1 }) };
    const root = { budget: { max_tokens: 5000, max_tool_calls: 10 }, used: use({ tokens: 4700, tool_calls: 2, runs: 2 }) };
    expect(narrowBudget(toRunBudget({ max_tokens: 100_000 }), [root, parent])).toEqual({ max_tokens: 300, max_tool_calls: 8, max_runs: 2 });
    expect(narrowBudget(toRunBudget({ max_tokens: 50 }), [root, parent])).toEqual({ max_tokens: 50, max_tool_calls: 8, max_runs: 2 });
    expect(narrowBudget(undefined, [])).toBeUndefined();
    expect(narrowBudget({ max_runs: 4 }, [])).toEqual({ max_runs: 4 });
  });

  it('is exhausted at its limit, breached only past it', () => {
    const budget = { max_tokens: 100 };
    expect(exhaustion([{ runId: 'r', budget, used: use({ tokens: 99 }) }])).toBeUndefined();
    expect(exhaustion([{ runId: 'r', budget, used: use({ tokens: 100 }) }])).toEqual({ runId: 'r', limit: 'max_tokens', allowed: 100, used: 100 });
    expect(breachOf(budget, use({ tokens: 100 }))).toBeUndefined();
    expect(breachOf(budget, use({ tokens: 101 }))).toEqual({ limit: 'max_tokens', allowed: 100, used: 101 });
    expect(breachOf({ max_duration_ms: 1000 }, use({ duration_ms: 1001 }))).toEqual({ limit: 'max_duration_ms', allowed: 1000, used: 1001 });
  });

  it("counts a session's budget first: its runs are narrowed by it and refused once it has nothing left", () => {
    const session = { sessionId: 's1', budget: { max_tool_calls: 10, max_runs: 2 }, used: use({ tool_calls: 4, runs: 1 }) };
    expect(narrowBudget(undefined, [session])).toEqual({ max_tool_calls: 6, max_runs: 1 });
    const spent = { ...session, used: use({ tool_calls: 4, runs: 2 }) };
    const run = { runId: 'r', budget: { max_runs: 1 }, used: use({ runs: 1 }) };
    expect(exhaustion([spent, run])).toEqual({ sessionId: 's1', limit: 'max_runs', allowed: 2, used: 2 });
  });

  it('warns once per limit from 80% on', () => {
    const budget = { max_tokens: 100, max_tool_calls: 10 };
    expect(newWarnings(budget, use({ tokens: 79, tool_calls: 8 }), [])).toEqual([{ limit: 'max_tool_calls', allowed: 10, used: 8 }]);
    expect(newWarnings(budget, use({ tokens: 80, tool_calls: 9 }), ['max_tool_calls'])).toEqual([{ limit: 'max_tokens', allowed: 100, used: 80 }]);
  });

  it('shows what is left, never below zero', () => {
    expect(budgetView({ max_tokens: 100, max_runs: 2 }, use({ tokens: 130, runs: 1 }))).toEqual({
      limits: { max_tokens: 100, max_runs: 2 },
      used: use({ tokens: 130, runs: 1 }),
      remaining: { max_tokens: 0, max_runs: 1 },
    });
    expect(budgetView({ max_runs: 2 }, undefined)).toEqual({ limits: { max_runs: 2 }, used: null, remaining: null });
  });

  it('narrows max_cost by what the covering budgets have left, to a millionth', () => {
    const parent = { runId: 'p', budget: { max_cost: 0.3 }, used: use({ cost: 0.1 }) };
    expect(narrowBudget(toRunBudget({ max_cost: 5 }), [parent])).toEqual({ max_cost: 0.2 });
    expect(narrowBudget(toRunBudget({ max_cost: 0.05 }), [parent])).toEqual({ max_cost: 0.05 });
    expect(exhaustion([{ ...parent, used: use({ cost: 0.3 }) }])).toEqual({ runId: 'p', limit: 'max_cost', allowed: 0.3, used: 0.3 });
    expect(breachOf({ max_cost: 0.3 }, use({ cost: 0.300001 }))).toEqual({ limit: 'max_cost', allowed: 0.3, used: 0.300001 });
    expect(budgetView({ max_cost: 0.3 }, use({ cost: 0.1 })).remaining).toEqual({ max_cost: 0.2 });
  });

  describe('before a model call', () => {
    it('refuses once any covering token or cost budget is spent, naming whose', () => {
      const session = { sessionId: 's1', budget: { max_cost: 1 }, used: use({ cost: 0.4 }) };
      const parent = { runId: 'p', budget: { max_tokens: 1000 }, used: use({ tokens: 1000 }) };
      expect(modelCallAdmission([session, parent])).toEqual({ spent: { runId: 'p', limit: 'max_tokens', allowed: 1000, used: 1000, left: 0 } });
      const costly = { runId: 'c', budget: { max_cost: 0.5 }, used: use({ cost: 0.5 }) };
      expect(modelCallAdmission([session, costly])).toEqual({ spent: { runId: 'c', limit: 'max_cost', allowed: 0.5, used: 0.5, left: 0 } });
    });

    it('sends it capped at the least any token budget has left; other limits do not refuse it', () => {
      const root = { runId: 'r', budget: { max_tokens: 5000, max_tool_calls: 3 }, used: use({ tokens: 4000, tool_calls: 3 }) };
      const child = { runId: 'c', budget: { max_tokens: 900, max_cost: 1 }, used: use({ tokens: 600, cost: 0.2 }) };
      expect(modelCallAdmission([root, child])).toEqual({ tokensLeft: { runId: 'c', limit: 'max_tokens', allowed: 900, used: 600, left: 300 } });
      expect(modelCallAdmission([{ runId: 'r', budget: { max_runs: 1 }, used: use({ runs: 1 }) }])).toEqual({ tokensLeft: undefined });
      expect(modelCallAdmission([])).toEqual({ tokensLeft: undefined });
    });
  });
});
