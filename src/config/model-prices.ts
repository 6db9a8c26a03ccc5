import * as fs from 'node:fs';
import { z } from 'zod';

/** Prices per million tokens of one model, in the table's currency. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Input read from the provider's cache; the input price when the table does not say. */
  cachedInput?: number;
}

/**
 * `SWITCHBOARD_MODEL_PRICES`: one currency, prices per model. A model not in it has an unknown cost.
 * A `Map`, not a plain object: a model named `constructor`, `toString` or `__proto__` is priced only
 * when the table lists it, never by `Object.prototype` (issue 39: such a model passed a cost budget).
 */
export interface ModelPriceTable {
  currency: string;
  models: ReadonlyMap<string, ModelPrice>;
}

/** A price table from its JSON shape's entries (own properties only), camelCase prices. */
export function modelPriceTable(currency: string, models: Record<string, ModelPrice>): ModelPriceTable {
  return { currency, models: new Map(Object.entries(models)) };
}

/** The model's price, or undefined when the table (or no table) does not list it. */
export function priceOf(table: ModelPriceTable | undefined, model: string): ModelPrice | undefined {
  return table?.models.get(model);
}

const price = z.number({ message: 'must be a number' }).finite().nonnegative({ message: 'must not be negative' });

const priceTableSchema = z
  .object({
    currency: z.string().trim().min(1, { message: 'name the currency, for instance "USD"' }).max(16),
    models: z.record(z.string().min(1), z.object({ input: price, output: price, cached_input: price.optional() }).strict()),
  })
  .strict();

/**
 * Reads and checks the price table file: every problem named with its place (`models.gpt-4.1.input: must
 * be a number`), so a start refused for it says what to fix. Format (prices per million tokens):
 * `{"currency": "USD", "models": {"gpt-4.1": {"input": 2, "output": 8, "cached_input": 0.5}}}`.
 */
export function loadModelPrices(file: string): ModelPriceTable {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`SWITCHBOARD_MODEL_PRICES: cannot read ${file} as JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = priceTableSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`);
    throw new Error(`SWITCHBOARD_MODEL_PRICES: ${file} is not a price table: ${problems.join('; ')}`);
  }
  const models = new Map<string, ModelPrice>();
  for (const [model, p] of Object.entries(parsed.data.models)) {
    models.set(model, { input: p.input, output: p.output, ...(p.cached_input !== undefined ? { cachedInput: p.cached_input } : {}) });
  }
  return { currency: parsed.data.currency, models };
}
