import { itemOffsets, measuredWindow } from './measured-window';

describe('itemOffsets', () => {
  it('adds up measured heights and the estimate for items not measured yet, the total last', () => {
    const measured = new Map([
      ['a', 20],
      ['c', 100],
    ]);
    expect(itemOffsets(['a', 'b', 'c'], (key) => measured.get(key), 50)).toEqual([0, 20, 70, 170]);
  });
});

describe('measuredWindow', () => {
  // 1,000 items of 40 px, then one of 4,000 px (a long answer), then 1,000 more of 40 px.
  const heights = [...Array.from({ length: 1000 }, () => 40), 4000, ...Array.from({ length: 1000 }, () => 40)];
  const offsets = itemOffsets(
    heights.map((_, i) => String(i)),
    (key) => heights[Number(key)],
    0,
  );

  it('renders the items in view plus the overscan, the rest as padding that keeps the scrollbar true', () => {
    const w = measuredWindow(offsets, 4000, 600, 200);
    // In view from 3,800 to 4,800 px: items 95 to 119.
    expect(w).toEqual({ first: 95, end: 120, above: 95 * 40, below: offsets[offsets.length - 1] - 120 * 40 });
  });

  it('renders a tall item as one item, whatever part of it is in view', () => {
    const w = measuredWindow(offsets, 40_000 + 2000, 600, 0);
    expect(w.first).toBe(1000);
    expect(w.end).toBe(1001);
  });

  it('stays inside the list when scrolled past its end (the list shrank under the view)', () => {
    const w = measuredWindow(offsets, 10_000_000, 600);
    expect(w.first).toBe(w.end);
    expect(w.end).toBe(heights.length);
    expect(w.above + w.below).toBe(offsets[offsets.length - 1]);
  });

  it('renders every item of a short list and no padding', () => {
    expect(measuredWindow([0, 30, 60], 0, 800)).toEqual({ first: 0, end: 2, above: 0, below: 0 });
  });

  it('renders nothing for no items', () => {
    expect(measuredWindow([0], 0, 800)).toEqual({ first: 0, end: 0, above: 0, below: 0 });
  });
});
