import { modelPriceTable } from '../config';
import { assertBudgetAvailable, BudgetUnavailableError, costBudgetProblem } from './session-budget';

const PRICES = modelPriceTable('EUR', { 'gpt-4.1': { input: 2, output: 8 } });
const ROUTED = { routed: true } as const;

describe('a cost budget needs a price table and the model route', () => {
  it('is refused without a price table, naming SWITCHBOARD_MODEL_PRICES', () => {
    expect(costBudgetProblem({ max_cost: 1 }, undefined, ROUTED)).toContain('set SWITCHBOARD_MODEL_PRICES');
    expect(() => assertBudgetAvailable({ max_cost: 1 }, undefined, ROUTED)).toThrow(BudgetUnavailableError);
  });

  it('is refused when model calls are not routed through Switchboard, saying why not', () => {
    const problem = costBudgetProblem(
      { max_cost: 1 },
      PRICES,
      { routed: false, reason: 'the Copilot CLI speaks protocol 2' },
      'agent lead: budget.max_cost',
    );
    expect(problem).toContain('agent lead: budget.max_cost needs model calls routed through Switchboard');
    expect(problem).toContain('the Copilot CLI speaks protocol 2');
  });

  it('leaves budgets without max_cost alone, and takes one the service can keep', () => {
    expect(costBudgetProblem({ max_tokens: 100 }, undefined, { routed: false, reason: 'x' })).toBeUndefined();
    expect(costBudgetProblem(undefined, undefined, ROUTED)).toBeUndefined();
    expect(costBudgetProblem({ max_cost: 1 }, PRICES, ROUTED)).toBeUndefined();
  });
});
