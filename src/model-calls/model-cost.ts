import { type ModelPriceTable, priceOf } from '../config';
import type { ModelCost, ModelUsage } from './model-call.events';

/**
 * A call's cost from the price table: input not read from the cache at the input price, cached input at
 * the cached price (the input price when the table has none), output at the output price; prices are per
 * million tokens. Undefined (unknown, never 0) without a table or for a model it does not list; for a
 * priced model, unknown too when the provider answered but reported no usage (tokens were spent, how many
 * is not known). `usage` null: the provider gave no answer (unreachable, cancelled while waiting, or an
 * error status without usage), so no token was spent: 0 in the table's currency for a priced model, still
 * unknown for an unpriced one (issue 39). `spentUsageOf` says which a call's ending is.
 */
export function costOf(table: ModelPriceTable | undefined, model: string, usage: ModelUsage | null): ModelCost | undefined {
  const price = priceOf(table, model);
  if (!table || !price) return undefined;
  if (usage === null) return { amount: 0, currency: table.currency };
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  const input = usage.inputTokens ?? 0;
  const cached = Math.min(usage.cachedInputTokens ?? 0, input);
  const amount = ((input - cached) * price.input + cached * (price.cachedInput ?? price.input) + (usage.outputTokens ?? 0) * price.output) / 1_000_000;
  // Rounded to a millionth of the currency's unit: sums of many calls stay free of float noise.
  return { amount: Math.round(amount * 1_000_000) / 1_000_000, currency: table.currency };
}

/**
 * The usage `costOf` prices for a call's ending: none (null) when the provider gave no answer, i.e. no
 * response head, or an error status (400 or more) without usage; otherwise the usage it reported, maybe empty.
 */
export function spentUsageOf(record: { status: number; usage: ModelUsage } | undefined): ModelUsage | null {
  if (!record) return null;
  const reported = record.usage.inputTokens !== undefined || record.usage.outputTokens !== undefined;
  return record.status >= 400 && !reported ? null : record.usage;
}
