import { type ModelPriceTable, priceOf } from '../config/model-prices';
import type { ModelCost, ModelUsage } from './model-call.events';

/**
 * A call's cost from the price table: input not read from the cache at the input price, cached input at
 * the cached price (the input price when the table has none), output at the output price; prices are per
 * million tokens. Undefined (unknown, never 0) without a table, for a model it does not list, or when the
 * provider reported no usage.
 */
export function costOf(table: ModelPriceTable | undefined, model: string, usage: ModelUsage): ModelCost | undefined {
  const price = priceOf(table, model);
  if (!table || !price || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return undefined;
  const input = usage.inputTokens ?? 0;
  const cached = Math.min(usage.cachedInputTokens ?? 0, input);
  const amount = ((input - cached) * price.input + cached * (price.cachedInput ?? price.input) + (usage.outputTokens ?? 0) * price.output) / 1_000_000;
  // Rounded to a millionth of the currency's unit: sums of many calls stay free of float noise.
  return { amount: Math.round(amount * 1_000_000) / 1_000_000, currency: table.currency };
}
