import { modelPriceTable, type SwitchboardConfig } from '../config';
import type { ModelCallLineage } from '../model-calls';
import type { BudgetGuard } from './budget-guard';
import type { BudgetSpend } from './budget-spend';
import { BudgetModelGate } from './budget-model-gate';
import type { BudgetBreach, CoveringBudget } from './run-budget';

const use = (over: Partial<CoveringBudget['used']> = {}) => ({ tokens: 0, tool_calls: 0, runs: 0, duration_ms: 0, cost: 0, ...over });

const call: ModelCallLineage & { model: string } = {
  sessionId: 'sub-agent-child',
  cliAgentId: 'sub-agent-child',
  agentName: 'worker',
  runId: 'child',
  rootRunId: 'root',
  runPath: '/root/child/',
  lineagePath: ['lead', 'worker'],
  model: 'priced-model',
};

/** The gate over a spend tally that answers `covering` as given and records what it was asked. */
function gateOver(covering: CoveringBudget[], options: { mayApply?: boolean; prices?: boolean } = {}) {
  const reads: string[] = [];
  const spent: Array<{ owner: { runId?: string; sessionId?: string }; breach: BudgetBreach; refused: { sessionId: string } }> = [];
  const guard = {
    mayApply: () => options.mayApply ?? true,
    anySessionBudget: () => covering.some((c) => c.sessionId),
    budgetSpent: (owner: { runId?: string; sessionId?: string }, breach: BudgetBreach, refused: { sessionId: string }) =>
      spent.push({ owner, breach, refused: { sessionId: refused.sessionId } }),
  } as unknown as BudgetGuard;
  const spend = {
    covering: async (at: { runPath: string }, anySessionBudget: boolean) => {
      reads.push(`covering ${at.runPath}${anySessionBudget ? ' with its session' : ''}`);
      return covering;
    },
  } as unknown as BudgetSpend;
  const prices = options.prices === false ? undefined : modelPriceTable('USD', { 'priced-model': { input: 1, output: 2 } });
  const config = { modelCalls: { content: 'metadata', contentMaxBytes: 0, prices } } as unknown as SwitchboardConfig;
  return { gate: new BudgetModelGate(guard, spend, config), reads, spent };
}

describe('BudgetModelGate', () => {
  it('reads nothing for a call outside any run, or while no budget can apply', async () => {
    const outside = gateOver([{ runId: 'root', budget: { max_tokens: 1 }, used: use({ tokens: 5 }) }]);
    expect(await outside.gate.admit({ ...call, runId: undefined, runPath: undefined })).toBeUndefined();
    expect(outside.reads).toEqual([]);
    const idle = gateOver([], { mayApply: false });
    expect(await idle.gate.admit(call)).toBeUndefined();
    expect(idle.reads).toEqual([]);
  });

  it('caps the output at what the tightest token budget has left', async () => {
    const { gate, spent } = gateOver([
      { runId: 'root', budget: { max_tokens: 3000 }, used: use({ tokens: 2000 }) },
      { runId: 'child', budget: { max_tokens: 1200, max_cost: 1 }, used: use({ tokens: 900, cost: 0.2 }) },
    ]);
    expect(await gate.admit(call)).toEqual({ outputCap: 300 });
    expect(spent).toEqual([]);
  });

  it("refuses once an ancestor's token budget is spent, says whose and what to do, and stops that budget's subtree", async () => {
    const { gate, spent } = gateOver([{ runId: 'root', budget: { max_tokens: 3000 }, used: use({ tokens: 3000 }) }]);
    const admission = await gate.admit(call);
    expect(admission).toEqual({
      refuse: { limit: 'max_tokens', used: 3000, max: 3000, budgetRunId: 'root', message: expect.any(String) },
    });
    const message = admission && 'refuse' in admission ? admission.refuse.message : '';
    expect(message).toContain('the budget of run root (over run child) has reached max_tokens 3000 (used 3000)');
    expect(message).toContain('start the work again with a larger max_tokens');
    // The refused call's session is left to end its turn on the refusal.
    expect(spent).toEqual([
      { owner: { runId: 'root' }, breach: { limit: 'max_tokens', allowed: 3000, used: 3000 }, refused: { sessionId: 'sub-agent-child' } },
    ]);
  });

  it("refuses once the session's cost budget is spent, in the table's currency", async () => {
    const { gate, spent, reads } = gateOver([{ sessionId: 'owner-session', budget: { max_cost: 0.5 }, used: use({ cost: 0.5 }) }]);
    const admission = await gate.admit(call);
    expect(admission && 'refuse' in admission && admission.refuse).toMatchObject({
      limit: 'max_cost',
      max: 0.5,
      used: 0.5,
      budgetSessionId: 'owner-session',
    });
    expect(admission && 'refuse' in admission && admission.refuse.message).toContain(
      'the budget of session owner-session (over the runs it starts) has reached max_cost 0.5 USD (used 0.5 USD)',
    );
    expect(spent).toEqual([
      { owner: { sessionId: 'owner-session' }, breach: { limit: 'max_cost', allowed: 0.5, used: 0.5 }, refused: { sessionId: 'sub-agent-child' } },
    ]);
    // The session's budget over the tree was asked for.
    expect(reads).toEqual(['covering /root/child/ with its session']);
  });

  it('refuses a call to a model without a price under a cost budget, naming the model and the setting', async () => {
    const { gate, spent } = gateOver([{ runId: 'child', budget: { max_cost: 2 }, used: use({ cost: 0.1 }) }]);
    const admission = await gate.admit({ ...call, model: 'unlisted-model' });
    expect(admission && 'refuse' in admission && admission.refuse.message).toContain('model unlisted-model has no price in SWITCHBOARD_MODEL_PRICES');
    expect(spent).toEqual([]);
    // Without a cost budget the same model goes through.
    expect(await gateOver([{ runId: 'child', budget: { max_runs: 2 }, used: use() }]).gate.admit({ ...call, model: 'unlisted-model' })).toBeUndefined();
  });

  it("refuses a model named after Object.prototype's members under a cost budget: the table does not list them", async () => {
    for (const model of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const { gate } = gateOver([{ runId: 'child', budget: { max_cost: 2 }, used: use({ cost: 0.1 }) }]);
      const admission = await gate.admit({ ...call, model });
      expect(admission && 'refuse' in admission && admission.refuse.message).toContain(`model ${model} has no price in SWITCHBOARD_MODEL_PRICES`);
    }
  });
});
