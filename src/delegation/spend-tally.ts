/** Where a spend counts: the run's path (its own budget and its ancestors') and the session that started its tree. */
export interface SpendPlace {
  runPath: string;
  treeOwner?: string;
}

/**
 * One budget's spend as a refusal before spending counts it: the CLI's usage events (what the runs
 * table sums) and the ledger's tokens and cost (what `model_calls` sums), kept apart because a budget's
 * tokens are the larger of the two (`budgetUseOf`).
 */
export interface TalliedSpend {
  cliTokens: number;
  ledgerTokens: number;
  cost: number;
}

export const NOTHING_SPENT: TalliedSpend = { cliTokens: 0, ledgerTokens: 0, cost: 0 };

interface Tally extends TalliedSpend {
  /** Calls counted here before their end was committed: their committed end is not counted again. */
  counted: Set<string>;
}

/** Budgets kept at most: a tally dropped is read again on its next call. */
const KEPT = 10_000;

export const runSpendKey = (runId: string) => `run:${runId}`;
export const sessionSpendKey = (sessionId: string) => `session:${sessionId}`;

/** Costs are summed to a millionth of the currency's unit, as each call's cost is. */
const addCost = (a: number, b: number) => Math.round((a + b) * 1_000_000) / 1_000_000;

/**
 * issue 41: what each budget (a run's subtree, a session's runs) spent so far, in memory, so that a
 * model call is admitted without a read. A budget's tally is opened at nothing when its run starts (a
 * new subtree spent nothing), or from one read when first asked (a run of before a restart). Each call
 * of this instance counts as its answer ends, before the CLI can send the next one (`callSpent`); its
 * committed end then counts nowhere twice; the ends of other instances' calls and the CLI's usage count
 * when committed. A read in flight while a call's end commits may count it twice: a refusal then comes a
 * call early, never late.
 */
export class SpendTally {
  private readonly tallies = new Map<string, Tally>();
  /** This instance's calls counted as they ended whose end is not committed yet: a tally opened meanwhile adds them. */
  private readonly uncommitted = new Map<string, { place: SpendPlace; tokens: number; cost: number }>();

  has(key: string): boolean {
    return this.tallies.has(key);
  }

  /** The budgets a spend at `place` counts in: the session's over the tree, each run's on its path. */
  keysOver(place: SpendPlace): string[] {
    return [...(place.treeOwner ? [sessionSpendKey(place.treeOwner)] : []), ...idsOnPath(place.runPath).map(runSpendKey)];
  }

  /**
   * Opens a budget's tally at `base` (nothing for a run just started), with this instance's calls under
   * it whose end is not committed yet (no read can see them). Does nothing to a tally already open.
   */
  open(key: string, base: TalliedSpend, covers: (place: SpendPlace) => boolean): void {
    if (this.tallies.has(key)) return;
    const tally: Tally = { ...base, counted: new Set() };
    for (const [callId, call] of this.uncommitted) {
      if (!covers(call.place)) continue;
      tally.ledgerTokens += call.tokens;
      tally.cost = addCost(tally.cost, call.cost);
      tally.counted.add(callId);
    }
    if (this.tallies.size >= KEPT) this.tallies.delete(this.tallies.keys().next().value as string);
    this.tallies.set(key, tally);
  }

  /** What a read found for a tally opened before it (the calls that ended during the read already count). */
  addRead(key: string, read: TalliedSpend): void {
    const tally = this.tallies.get(key);
    if (!tally) return;
    tally.cliTokens += read.cliTokens;
    tally.ledgerTokens += read.ledgerTokens;
    tally.cost = addCost(tally.cost, read.cost);
  }

  drop(key: string): void {
    this.tallies.delete(key);
  }

  /** A call of this instance spent `tokens` and `cost`, as its answer ends: counted now, not again when committed. */
  callSpent(place: SpendPlace, callId: string, tokens: number, cost: number): void {
    if (this.uncommitted.size >= KEPT) this.uncommitted.delete(this.uncommitted.keys().next().value as string);
    this.uncommitted.set(callId, { place, tokens, cost });
    for (const key of this.keysOver(place)) {
      const tally = this.tallies.get(key);
      if (!tally) continue;
      tally.ledgerTokens += tokens;
      tally.cost = addCost(tally.cost, cost);
      tally.counted.add(callId);
    }
  }

  /** A call's end was committed (any instance's): counted where it was not already. `place` undefined: outside every run. */
  callCommitted(place: SpendPlace | undefined, callId: string, tokens: number, cost: number): void {
    this.uncommitted.delete(callId);
    if (!place) return;
    for (const key of this.keysOver(place)) {
      const tally = this.tallies.get(key);
      if (!tally || tally.counted.delete(callId)) continue;
      tally.ledgerTokens += tokens;
      tally.cost = addCost(tally.cost, cost);
    }
  }

  /** A CLI usage event of a run's session was committed. */
  usageCommitted(place: SpendPlace, tokens: number): void {
    for (const key of this.keysOver(place)) {
      const tally = this.tallies.get(key);
      if (tally) tally.cliTokens += tokens;
    }
  }

  /** A budget's tokens (the larger of the CLI's and the ledger's count) and cost; undefined when not open. */
  used(key: string): { tokens: number; cost: number } | undefined {
    const tally = this.tallies.get(key);
    return tally && { tokens: Math.max(tally.cliTokens, tally.ledgerTokens), cost: tally.cost };
  }
}

/** Whether a spend at `place` counts in the budget of `runPath`'s subtree. */
export function runCovers(runPath: string): (place: SpendPlace) => boolean {
  return (place) => place.runPath.startsWith(runPath);
}

/** Whether a spend at `place` counts in the budget of the session that started its tree. */
export function sessionCovers(sessionId: string): (place: SpendPlace) => boolean {
  return (place) => place.treeOwner === sessionId;
}

/** The ids on a run's path, the root first and the run last. */
export function idsOnPath(runPath: string): string[] {
  return runPath.split('/').filter(Boolean);
}
