import { costText, latencyText, spendCell, spendCostText, spendText, statusOf, tokensText } from './model-call-figures';

describe('model call figures', () => {
  it('says "unknown" for a cost without a price, and shows a real 0 as 0', () => {
    expect(costText(null, 'USD')).toBe('unknown');
    expect(costText(undefined, undefined)).toBe('unknown');
    expect(costText(0, 'USD')).toBe('0 USD');
  });

  it('keeps a fraction of a cent readable and rounds larger amounts to cents', () => {
    expect(costText(0.000123456, 'USD')).toBe('0.000123 USD');
    expect(costText(0.0125, 'EUR')).toBe('0.0125 EUR');
    expect(costText(12.3456, 'USD')).toBe('12.35 USD');
    expect(costText(1234.5, 'USD')).toBe('1,234.50 USD');
  });

  it('words latency as time to first byte and in all, leaving out what is not measured', () => {
    expect(latencyText({ status: 'succeeded', ttfbMs: 230, durationMs: 1400 })).toBe('first byte 230 ms · 1.4 s in all');
    expect(latencyText({ status: 'failed', ttfbMs: null, durationMs: 90 })).toBe('90 ms in all');
    expect(latencyText({ status: 'in_flight', ttfbMs: null, durationMs: null })).toBe('waiting for the answer');
    expect(latencyText({ status: 'refused' })).toBe('no latency measured');
  });

  it('words tokens with the cached and reasoning parts only when the provider said some', () => {
    expect(tokensText({ status: 'succeeded', inputTokens: 1200, outputTokens: 300, cachedInputTokens: 800, reasoningTokens: 120 })).toBe(
      '1,200 in (800 cached) · 300 out (120 reasoning)',
    );
    expect(tokensText({ status: 'succeeded', inputTokens: 10, outputTokens: 2, cachedInputTokens: 0 })).toBe('10 in · 2 out');
    expect(tokensText({ status: 'failed', inputTokens: null, outputTokens: null })).toBe('tokens unknown');
    expect(tokensText({ status: 'in_flight' })).toBe('tokens not known yet');
  });

  it('names each status and gives it a tone', () => {
    expect(statusOf('in_flight')).toEqual({ label: 'in flight', tone: 'running' });
    expect(statusOf('succeeded')).toEqual({ label: 'done', tone: 'succeeded' });
    expect(statusOf('refused').tone).toBe('denied');
    expect(statusOf('failed').tone).toBe('failed');
  });

  it('sums calls with an unknown cost as unknown, and a partly priced sum as a lower bound', () => {
    const base = { calls: 3, inputTokens: 1234, outputTokens: 567, currency: 'USD' };
    expect(spendText({ ...base, cost: 0.0123, unpricedCalls: 0 })).toBe('3 model calls · 1,234 tokens in, 567 out · cost 0.0123 USD');
    expect(spendCostText({ ...base, cost: null, unpricedCalls: 3 })).toBe('unknown');
    expect(spendCostText({ ...base, cost: 0.0123, unpricedCalls: 1 })).toBe('at least 0.0123 USD (1 call of unknown cost)');
    expect(spendText({ calls: 0, inputTokens: 0, outputTokens: 0, unpricedCalls: 0 })).toBe('No model calls');
  });

  it('fills a run tree cell only for runs that called a model', () => {
    expect(spendCell(undefined)).toBe('');
    expect(spendCell({ calls: 0, inputTokens: 0, outputTokens: 0, cost: 0, unpricedCalls: 0 })).toBe('');
    expect(spendCell({ calls: 2, inputTokens: 5, outputTokens: 5, cost: null, unpricedCalls: 2 })).toBe('unknown');
    expect(spendCell({ calls: 2, inputTokens: 5, outputTokens: 5, cost: 0.5, unpricedCalls: 1 })).toBe('≥ 0.5');
    expect(spendCell({ calls: 2, inputTokens: 5, outputTokens: 5, cost: 2, unpricedCalls: 0 })).toBe('2.00');
  });
});
