/** Distinct model labels at most: a provider echoing any model name asked for must not grow the series without end. */
export const MAX_MODEL_LABELS = 50;
export const OTHER_MODEL = 'other';

/**
 * The `model` label of the model-call metrics, bounded: the models of the price table, then the first
 * models seen up to `max` in all; any other model is counted as `other`.
 */
export class ModelLabels {
  private readonly labels = new Set<string>();

  constructor(
    priced: Iterable<string> = [],
    private readonly max = MAX_MODEL_LABELS,
  ) {
    for (const model of priced) this.admit(model);
  }

  of(model: string): string {
    return this.admit(model) ? model : OTHER_MODEL;
  }

  private admit(model: string): boolean {
    if (this.labels.has(model)) return true;
    if (this.labels.size >= this.max || model === OTHER_MODEL) return false;
    this.labels.add(model);
    return true;
  }
}
