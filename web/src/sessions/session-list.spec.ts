import { actionsFor, statusTone, timeAgo } from './session-list';

describe('session list rules', () => {
  it('offers resume only for an interrupted session and nothing for one that is over', () => {
    expect(actionsFor('interrupted')).toEqual(['resume', 'destroy']);
    for (const status of ['starting', 'active', 'running', 'idle']) expect(actionsFor(status)).toEqual(['destroy']);
    expect(actionsFor('destroyed')).toEqual([]);
    expect(actionsFor('failed')).toEqual([]);
  });

  it('colours interrupted and failed sessions as needing attention', () => {
    expect(statusTone('interrupted')).toBe('attention');
    expect(statusTone('failed')).toBe('attention');
    expect(statusTone('running')).toBe('live');
    expect(statusTone('destroyed')).toBe('over');
    expect(statusTone('starting')).toBe('pending');
  });

  it('says how long ago, rounding to the unit a reader uses', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    expect(timeAgo('2026-01-10T11:59:30Z', now)).toBe('just now');
    expect(timeAgo('2026-01-10T11:55:00Z', now)).toBe('5 min ago');
    expect(timeAgo('2026-01-10T09:00:00Z', now)).toBe('3 h ago');
    expect(timeAgo('2026-01-09T12:00:00Z', now)).toBe('24 h ago');
    expect(timeAgo('2026-01-08T12:00:00Z', now)).toBe('2 days ago');
    expect(timeAgo('2026-01-10T12:00:05Z', now)).toBe('just now'); // a clock slightly behind the service's
  });
});
