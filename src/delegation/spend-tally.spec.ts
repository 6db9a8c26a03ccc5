import { NOTHING_SPENT, runCovers, runSpendKey, sessionCovers, sessionSpendKey, SpendTally } from './spend-tally';

const root = runSpendKey('root');
const child = runSpendKey('child');
const owner = sessionSpendKey('owner');
const atChild = { runPath: '/root/child/', treeOwner: 'owner' };

describe('SpendTally', () => {
  it('counts a call of this instance in every open budget over it as its answer ends, and not again when its end commits', () => {
    const tally = new SpendTally();
    tally.open(root, NOTHING_SPENT, runCovers('/root/'));
    tally.open(child, NOTHING_SPENT, runCovers('/root/child/'));
    tally.open(owner, NOTHING_SPENT, sessionCovers('owner'));
    tally.callSpent(atChild, 'c1', 120, 0.25);
    expect([tally.used(root), tally.used(child), tally.used(owner)]).toEqual([
      { tokens: 120, cost: 0.25 },
      { tokens: 120, cost: 0.25 },
      { tokens: 120, cost: 0.25 },
    ]);
    tally.callCommitted(atChild, 'c1', 120, 0.25);
    expect(tally.used(child)).toEqual({ tokens: 120, cost: 0.25 });
    // A sibling's call counts in the root's budget and the session's, not in the child's.
    tally.callSpent({ runPath: '/root/other/', treeOwner: 'owner' }, 'c2', 30, 0.1);
    expect([tally.used(root), tally.used(child), tally.used(owner)]).toEqual([
      { tokens: 150, cost: 0.35 },
      { tokens: 120, cost: 0.25 },
      { tokens: 150, cost: 0.35 },
    ]);
  });

  it("counts another instance's call when its end commits", () => {
    const tally = new SpendTally();
    tally.open(child, NOTHING_SPENT, runCovers('/root/child/'));
    tally.callCommitted(atChild, 'elsewhere', 40, 0.02);
    expect(tally.used(child)).toEqual({ tokens: 40, cost: 0.02 });
  });

  it("opens a budget with this instance's calls whose end is not committed yet: no read can see them", () => {
    const tally = new SpendTally();
    tally.callSpent(atChild, 'c1', 70, 0.5);
    tally.callSpent({ runPath: '/elsewhere/' }, 'c2', 1000, 9);
    tally.open(root, NOTHING_SPENT, runCovers('/root/'));
    // The read ran before c1's end committed: it found what was committed before.
    tally.addRead(root, { cliTokens: 0, ledgerTokens: 200, cost: 1 });
    expect(tally.used(root)).toEqual({ tokens: 270, cost: 1.5 });
    tally.callCommitted(atChild, 'c1', 70, 0.5);
    expect(tally.used(root)).toEqual({ tokens: 270, cost: 1.5 });
    // Once committed, a budget opened later finds the call in its read only.
    tally.open(child, NOTHING_SPENT, runCovers('/root/child/'));
    expect(tally.used(child)).toEqual({ tokens: 0, cost: 0 });
  });

  it("takes a budget's tokens as the larger of the CLI's usage and the ledger's", () => {
    const tally = new SpendTally();
    tally.open(child, NOTHING_SPENT, runCovers('/root/child/'));
    tally.usageCommitted(atChild, 90);
    tally.callSpent(atChild, 'c1', 60, 0);
    expect(tally.used(child)).toEqual({ tokens: 90, cost: 0 });
    tally.callSpent(atChild, 'c2', 60, 0);
    expect(tally.used(child)).toEqual({ tokens: 120, cost: 0 });
  });

  it('keeps costs to a millionth of the unit, free of float noise', () => {
    const tally = new SpendTally();
    tally.open(child, NOTHING_SPENT, runCovers('/root/child/'));
    for (let i = 0; i < 3; i++) tally.callSpent(atChild, `c${i}`, 1, 0.1);
    expect(tally.used(child)?.cost).toBe(0.3);
  });

  it('answers nothing for a budget not open, and counts nothing for a call outside every run', () => {
    const tally = new SpendTally();
    expect(tally.used(child)).toBeUndefined();
    tally.open(child, NOTHING_SPENT, runCovers('/root/child/'));
    tally.callCommitted(undefined, 'c1', 50, 1);
    expect(tally.used(child)).toEqual({ tokens: 0, cost: 0 });
  });
});
