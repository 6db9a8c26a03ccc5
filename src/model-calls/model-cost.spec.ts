import { modelPriceTable } from '../config';
import { costOf, spentUsageOf } from './model-cost';

const table = modelPriceTable('EUR', {
  'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'no-cache-price': { input: 3, output: 15 },
});

describe('costOf', () => {
  it('prices input, cached input and output per million tokens, in the table’s currency', () => {
    // 1000 uncached at 2, 3000 cached at 0.5, 500 out at 8: (2000 + 1500 + 4000) / 1e6.
    expect(costOf(table, 'gpt-4.1', { inputTokens: 4000, cachedInputTokens: 3000, outputTokens: 500 })).toEqual({ amount: 0.0075, currency: 'EUR' });
    expect(costOf(table, 'gpt-4.1', { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toEqual({ amount: 10, currency: 'EUR' });
  });

  it('prices cached input at the input price when the table has no cached price', () => {
    expect(costOf(table, 'no-cache-price', { inputTokens: 1000, cachedInputTokens: 1000, outputTokens: 0 })).toEqual({ amount: 0.003, currency: 'EUR' });
  });

  it('never counts more cached tokens than the input', () => {
    expect(costOf(table, 'gpt-4.1', { inputTokens: 100, cachedInputTokens: 5000 })).toEqual({ amount: 0.00005, currency: 'EUR' });
  });

  it('is unknown, never 0, without a table, for a model the table does not list, or without usage', () => {
    expect(costOf(undefined, 'gpt-4.1', { inputTokens: 10, outputTokens: 10 })).toBeUndefined();
    expect(costOf(table, 'gpt-5', { inputTokens: 10, outputTokens: 10 })).toBeUndefined();
    expect(costOf(table, 'gpt-4.1', {})).toBeUndefined();
    expect(costOf(table, 'gpt-4.1', { cachedInputTokens: 10, reasoningTokens: 3 })).toBeUndefined();
    // Object.prototype's names are no models.
    for (const model of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(costOf(table, model, { inputTokens: 10 })).toBeUndefined();
  });

  it('is 0 in the table’s currency for a priced call the provider never answered, and unknown for an unpriced one (issue 39)', () => {
    // A stop cancels calls still waiting for the provider: nothing was spent on a priced model...
    expect(costOf(table, 'gpt-4.1', null)).toEqual({ amount: 0, currency: 'EUR' });
    // ...but a model without a price, or no table at all, leaves the cost unknown, never 0.
    expect(costOf(table, 'gpt-5', null)).toBeUndefined();
    expect(costOf(undefined, 'gpt-4.1', null)).toBeUndefined();
  });

  it('takes a call that got no answer, or an error without usage, as one that spent nothing; an answer without usage as unknown (issue 39)', () => {
    expect(spentUsageOf(undefined)).toBeNull();
    expect(spentUsageOf({ status: 429, usage: {} })).toBeNull();
    expect(spentUsageOf({ status: 400, usage: { inputTokens: 12 } })).toEqual({ inputTokens: 12 });
    expect(spentUsageOf({ status: 200, usage: {} })).toEqual({});
    expect(costOf(table, 'gpt-4.1', spentUsageOf({ status: 502, usage: {} }))).toEqual({ amount: 0, currency: 'EUR' });
    // Cancelled mid-answer, before the usage came: tokens were spent, how many is not known.
    expect(costOf(table, 'gpt-4.1', spentUsageOf({ status: 200, usage: {} }))).toBeUndefined();
  });

  it('is priced with one side of the usage missing, counted as none', () => {
    expect(costOf(table, 'gpt-4.1', { outputTokens: 1000 })).toEqual({ amount: 0.008, currency: 'EUR' });
    expect(costOf(table, 'gpt-4.1', { inputTokens: 0, outputTokens: 0 })).toEqual({ amount: 0, currency: 'EUR' });
  });

  it('rounds to a millionth of the currency unit, so sums of many calls carry no float noise', () => {
    const cheap = modelPriceTable('USD', { m: { input: 0.1, output: 0.3 } });
    // 0.1 * 7 + 0.3 * 1e6 in floating point is 300000.70000000001: the cost is 0.300001, not 0.30000070000000001.
    expect(costOf(cheap, 'm', { inputTokens: 7, outputTokens: 1_000_000 })).toEqual({ amount: 0.300001, currency: 'USD' });
    expect(costOf(cheap, 'm', { inputTokens: 3, outputTokens: 0 })).toEqual({ amount: 0, currency: 'USD' });
    expect(costOf(cheap, 'm', { inputTokens: 1_000_000, outputTokens: 1_000_000 })?.amount).toBe(0.4);
  });
});
