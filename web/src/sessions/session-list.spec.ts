import { actionsFor, runLabel, sessionTitle, shortId, statusTone, timeAgo } from './session-list';

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

describe('session list labels', () => {
  it('calls a session by its title, and one without a message yet plainly', () => {
    expect(sessionTitle({ title: 'Bugs in main.ts' })).toBe('Bugs in main.ts');
    expect(sessionTitle({ title: null })).toBe('Untitled session');
    expect(sessionTitle({ title: '  ' })).toBe('Untitled session');
  });

  it('names a run by its agent and task, the task on one short line', () => {
    expect(runLabel({ agentId: 'code-reviewer', prompt: 'Review\n  main.ts' }, 'Code Reviewer')).toBe('Code Reviewer: Review main.ts');
    expect(runLabel({ agentId: 'code-reviewer', prompt: 'x'.repeat(100) })).toBe(`code-reviewer: ${'x'.repeat(59)}…`);
  });

  it('shortens only ids too long to read', () => {
    expect(shortId('e4c3410c-1b2a-4c3d-8e9f-001122334455')).toBe('e4c3410c…');
    expect(shortId('chat-1')).toBe('chat-1');
  });
});
