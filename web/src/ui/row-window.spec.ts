import { rowWindow } from './row-window';

describe('rowWindow', () => {
  it('renders the rows in view plus the overscan, with spacers for the rest', () => {
    // 1,500 rows of 30 px, a 600 px view scrolled to row 100.
    expect(rowWindow(3000, 600, 30, 1500, 10)).toEqual({ first: 90, end: 130, above: 2700, below: 1370 * 30 });
  });

  it('starts at the top without negative rows', () => {
    expect(rowWindow(0, 300, 30, 1500, 5)).toEqual({ first: 0, end: 15, above: 0, below: 1485 * 30 });
  });

  it('renders every row of a short table and no spacer', () => {
    expect(rowWindow(0, 900, 30, 4)).toEqual({ first: 0, end: 4, above: 0, below: 0 });
  });

  it('stays inside the rows when scrolled past the end (the table shrank under the view)', () => {
    const w = rowWindow(99_000, 600, 30, 100, 10);
    expect(w.end).toBe(100);
    expect(w.first).toBeLessThanOrEqual(w.end);
    expect(w.above + (w.end - w.first) * 30 + w.below).toBe(100 * 30);
  });

  it('renders nothing for no rows', () => {
    expect(rowWindow(0, 600, 30, 0)).toEqual({ first: 0, end: 0, above: 0, below: 0 });
  });
});
