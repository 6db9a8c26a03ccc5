// How the console words a model call's figures: cost (unknown is "unknown", never 0), tokens, latency,
// status, and a sum of calls (a session's, a run's, a subtree's). Pure, with its spec beside it.

/** The figures of one call the views read (a subset of the GraphQL ModelCall). */
export interface CallFigures {
  status: string;
  inputTokens?: number | null;
  outputTokens?: number | null;
  cachedInputTokens?: number | null;
  reasoningTokens?: number | null;
  cost?: number | null;
  currency?: string | null;
  ttfbMs?: number | null;
  durationMs?: number | null;
}

/** A sum of calls (GraphQL ModelCallSpend). */
export interface SpendFigures {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Null: no call of the sum has a price. */
  cost?: number | null;
  currency?: string | null;
  /** Calls whose model is not in the price table: their cost is unknown, not 0. */
  unpricedCalls: number;
}

const count = (n: number) => n.toLocaleString('en-US');

/** An amount of money small enough to be a fraction of a cent still says something: 3 significant digits below 1. */
export function amountText(amount: number): string {
  if (amount === 0) return '0';
  if (Math.abs(amount) >= 1) return amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return amount.toLocaleString('en-US', { maximumSignificantDigits: 3 });
}

/** "0.0123 USD"; "unknown" when the model has no price (never "0"). */
export function costText(cost: number | null | undefined, currency: string | null | undefined): string {
  if (cost === null || cost === undefined) return 'unknown';
  return currency ? `${amountText(cost)} ${currency}` : amountText(cost);
}

/** "230 ms", "4.2 s", "3 min 5 s"; empty when not measured. */
export function msText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** "first byte 230 ms · 1.4 s in all"; what is not measured yet is left out. */
export function latencyText(call: Pick<CallFigures, 'ttfbMs' | 'durationMs' | 'status'>): string {
  const parts: string[] = [];
  if (call.ttfbMs !== null && call.ttfbMs !== undefined) parts.push(`first byte ${msText(call.ttfbMs)}`);
  if (call.durationMs !== null && call.durationMs !== undefined) parts.push(`${msText(call.durationMs)} in all`);
  if (parts.length === 0) return call.status === 'in_flight' ? 'waiting for the answer' : 'no latency measured';
  return parts.join(' · ');
}

/** "1,200 in (800 cached) · 300 out (120 reasoning)"; "tokens unknown" when the provider said none. */
export function tokensText(call: Pick<CallFigures, 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'reasoningTokens' | 'status'>): string {
  const known = (n: number | null | undefined): n is number => n !== null && n !== undefined;
  if (!known(call.inputTokens) && !known(call.outputTokens)) return call.status === 'in_flight' ? 'tokens not known yet' : 'tokens unknown';
  const input = known(call.inputTokens)
    ? `${count(call.inputTokens)} in${known(call.cachedInputTokens) && call.cachedInputTokens > 0 ? ` (${count(call.cachedInputTokens)} cached)` : ''}`
    : 'input unknown';
  const output = known(call.outputTokens)
    ? `${count(call.outputTokens)} out${known(call.reasoningTokens) && call.reasoningTokens > 0 ? ` (${count(call.reasoningTokens)} reasoning)` : ''}`
    : 'output unknown';
  return `${input} · ${output}`;
}

type CallStatusText = { label: string; tone: 'running' | 'succeeded' | 'failed' | 'denied' };

const CALL_STATUS_TEXT = new Map<string, CallStatusText>([
  ['in_flight', { label: 'in flight', tone: 'running' }],
  ['succeeded', { label: 'done', tone: 'succeeded' }],
  ['refused', { label: 'refused', tone: 'denied' }],
  ['cancelled', { label: 'cancelled', tone: 'denied' }],
  ['interrupted', { label: 'interrupted', tone: 'denied' }],
  ['failed', { label: 'failed', tone: 'failed' }],
]);

/** A call's status in words, and the badge tone the console's steps use. */
export function statusOf(status: string): CallStatusText {
  // A status this console does not know yet: its own words, shown as a failure to look at.
  return CALL_STATUS_TEXT.get(status) ?? { label: status.replace(/_/g, ' '), tone: 'failed' };
}

/**
 * A sum's cost: "0.0123 USD", "unknown" when no call has a price, and "at least 0.0123 USD" with the
 * unpriced calls named when only some have one.
 */
export function spendCostText(spend: SpendFigures): string {
  if (spend.calls === 0) return costText(0, spend.currency);
  if (spend.cost === null || spend.cost === undefined) return 'unknown';
  const known = costText(spend.cost, spend.currency);
  if (spend.unpricedCalls === 0) return known;
  return `at least ${known} (${spend.unpricedCalls} call${spend.unpricedCalls === 1 ? '' : 's'} of unknown cost)`;
}

/**
 * "3 model calls · 1,234 tokens in, 567 out · cost 0.0123 USD". The sum counts the calls that ended with an
 * answer or an error; `listed`: the calls the list beside it shows (in flight and refused ones too), so
 * the line never says "No model calls" above a listed call.
 */
export function spendText(spend: SpendFigures, listed = 0): string {
  if (spend.calls === 0 && listed > 0) return `${count(listed)} model call${listed === 1 ? '' : 's'}, none ended yet · cost unknown`;
  if (spend.calls === 0) return 'No model calls';
  return `${count(spend.calls)} model call${spend.calls === 1 ? '' : 's'} · ${count(spend.inputTokens)} tokens in, ${count(spend.outputTokens)} out · cost ${spendCostText(spend)}`;
}

/** The short form for a cell of the run tree: "0.0123", "unknown", "≥ 0.0123"; "" when there was no call. */
export function spendCell(spend: SpendFigures | undefined): string {
  if (!spend || spend.calls === 0) return '';
  if (spend.cost === null || spend.cost === undefined) return 'unknown';
  return `${spend.unpricedCalls > 0 ? '≥ ' : ''}${amountText(spend.cost)}`;
}
