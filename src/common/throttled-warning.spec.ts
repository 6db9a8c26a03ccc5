import { ThrottledWarning } from './throttled-warning';

describe('ThrottledWarning', () => {
  it('logs a burst one by one, counts the rest, and sums them up in one line when the window turns', () => {
    const lines: Array<[object, string]> = [];
    let now = 1_000_000;
    const warning = new ThrottledWarning(
      { warn: (fields: object, message: string) => lines.push([fields, message]) },
      'more of them',
      3,
      60_000,
      () => now,
    );
    for (let i = 0; i < 10; i++) warning.warn({ i }, 'refused');
    expect(lines).toEqual([
      [{ i: 0 }, 'refused'],
      [{ i: 1 }, 'refused'],
      [{ i: 2 }, 'refused'],
    ]);
    expect(warning.suppressedInWindow).toBe(7);

    now += 59_999;
    warning.warn({ i: 10 }, 'refused');
    expect(lines).toHaveLength(3);

    now += 1;
    warning.warn({ i: 11 }, 'refused');
    expect(lines.slice(3)).toEqual([
      [{ suppressed: 8, windowMs: 60_000 }, 'more of them'],
      [{ i: 11 }, 'refused'],
    ]);
    expect(warning.suppressedInWindow).toBe(0);
  });

  it('writes no summary for a window in which nothing was held back', () => {
    const lines: string[] = [];
    let now = 0;
    const warning = new ThrottledWarning({ warn: (_fields: object, message: string) => lines.push(message) }, 'more of them', 3, 1_000, () => now);
    warning.warn({}, 'a');
    now += 5_000;
    warning.warn({}, 'b');
    expect(lines).toEqual(['a', 'b']);
  });
});
