import { emptyBudget } from '../session-settings';
import { draftOf, dueTimeText, emptyDraft, isoToWallTime, scheduleInputOf, timingOf, timingText, wallTimeToIso } from './schedule-draft';

describe('wall-clock times in a time zone', () => {
  it('reads a datetime-local value in the given zone, summer and winter', () => {
    expect(wallTimeToIso('2026-07-01T09:00', 'Europe/Berlin')).toBe('2026-07-01T07:00:00Z');
    expect(wallTimeToIso('2026-12-01T09:00', 'Europe/Berlin')).toBe('2026-12-01T08:00:00Z');
    expect(wallTimeToIso('2026-12-01T09:00', 'America/New_York')).toBe('2026-12-01T14:00:00Z');
    expect(wallTimeToIso('2026-12-01T09:00:30', 'UTC')).toBe('2026-12-01T09:00:30Z');
  });

  it('moves a time skipped by a spring-forward change on by the gap, and reads an ambiguous one once', () => {
    // 2026-03-29 02:30 does not exist in Berlin (02:00 → 03:00): it is 03:30 there.
    expect(wallTimeToIso('2026-03-29T02:30', 'Europe/Berlin')).toBe('2026-03-29T01:30:00Z');
    // 2026-10-25 02:30 happens twice in Berlin: one of the two instants, never another hour.
    expect(['2026-10-25T00:30:00Z', '2026-10-25T01:30:00Z']).toContain(wallTimeToIso('2026-10-25T02:30', 'Europe/Berlin'));
  });

  it('gives nothing for a value that is not a time or a zone that does not exist', () => {
    expect(wallTimeToIso('tomorrow', 'UTC')).toBeUndefined();
    expect(wallTimeToIso('2026-12-01T09:00', 'Mars/Olympus')).toBeUndefined();
  });

  it('shows an instant back as the wall-clock time of the zone', () => {
    expect(isoToWallTime('2026-12-01T08:00:00Z', 'Europe/Berlin')).toBe('2026-12-01T09:00');
    expect(isoToWallTime('2026-12-01T08:00:15Z', 'UTC')).toBe('2026-12-01T08:00:15');
    expect(wallTimeToIso(isoToWallTime('2026-07-04T16:45:00Z', 'Asia/Kolkata'), 'Asia/Kolkata')).toBe('2026-07-04T16:45:00Z');
  });
});

describe('the schedule draft as the API input', () => {
  const draft = { ...emptyDraft('reviewer'), prompt: 'Review the changes of the night.', timeZone: 'Europe/Berlin' };

  it('sends the cron expression and leaves at out; no name lets the service make one', () => {
    const { input, problems } = scheduleInputOf({ ...draft, cron: ' 0 2 * * * ', at: '2026-12-01T09:00' });
    expect(problems).toEqual([]);
    expect(input).toEqual({
      agentId: 'reviewer',
      prompt: 'Review the changes of the night.',
      cron: '0 2 * * *',
      at: null,
      timeZone: 'Europe/Berlin',
      endsAt: null,
      overlap: 'skip',
      catchUp: 'skip',
      model: null,
      budget: null,
      permissionPolicy: null,
      workspace: null,
    });
  });

  it('sends a one-off time and an end date read in the schedule zone, a model and a budget', () => {
    const { input } = scheduleInputOf({
      ...draft,
      name: ' nightly ',
      kind: 'at',
      at: '2026-12-01T09:00',
      endsAt: '2026-12-31T23:00',
      model: 'gpt-4.1',
      budget: { ...emptyBudget(), maxTokens: '5000', maxDurationSeconds: '60' },
    });
    expect(input).toMatchObject({
      name: 'nightly',
      cron: null,
      at: '2026-12-01T08:00:00Z',
      endsAt: '2026-12-31T22:00:00Z',
      model: 'gpt-4.1',
      budget: { maxTokens: 5000, maxDurationMs: 60_000 },
    });
  });

  it('names what is missing before asking the service', () => {
    expect(scheduleInputOf({ ...emptyDraft(), kind: 'at', budget: { ...emptyBudget(), maxRuns: '-1' } }).problems).toEqual([
      'agentId: pick an agent',
      'prompt: say what the agent should do',
      'at: pick the time it runs',
      'budget: every limit is a positive number (or empty)',
    ]);
  });

  it("sends the repository each firing's run works in, and none once it is cleared", () => {
    const workspace = { repository: ' /srv/repos/app ', ref: '', merge: 'auto' as const };
    expect(scheduleInputOf({ ...draft, workspace }).input?.workspace).toEqual({ repository: '/srv/repos/app' });
    expect(scheduleInputOf({ ...draft, workspace: { ...workspace, repository: '' } }).input?.workspace).toBeNull();
  });

  it('sends what each run may do in the service order, and no policy when every kind is denied', () => {
    const policy = { kinds: { read: 'allow', write: 'allow', shell: 'ask', url: 'deny' } as const, askTools: [] };
    expect(scheduleInputOf({ ...draft, policy }).input?.permissionPolicy).toEqual({ allowKinds: ['write', 'read'], askKinds: ['shell'], askTools: [] });
    expect(scheduleInputOf({ ...draft, policy: { kinds: { url: 'deny' }, askTools: [] } }).input?.permissionPolicy).toBeNull();
  });

  it('passes a time it cannot read to the service as typed, so the preview names the problem', () => {
    expect(timingOf({ ...draft, kind: 'at', at: 'soon' }).at).toBe('soon');
  });

  it('opens a saved schedule with its times in its own zone, and sends it back unchanged', () => {
    const saved = {
      name: 'nightly',
      agentId: 'reviewer',
      prompt: 'Review.',
      cron: null,
      at: '2026-12-01T08:00:00Z',
      timeZone: 'Europe/Berlin',
      endsAt: null,
      overlap: 'allow',
      catchUp: 'last',
      model: null,
      budget: { maxTokens: null, maxToolCalls: 3, maxRuns: null, maxDurationMs: 90_000, maxCost: null },
      permissionPolicy: { allowKinds: ['write', 'read'], askKinds: ['shell'], askTools: ['agent_run'] },
      workspace: { repository: '/srv/repos/app', ref: 'release', merge: 'manual' },
    };
    const opened = draftOf(saved);
    expect(opened).toMatchObject({ kind: 'at', at: '2026-12-01T09:00', overlap: 'allow', catchUp: 'last' });
    expect(opened.workspace).toEqual({ repository: '/srv/repos/app', ref: 'release', merge: 'manual' });
    // Unchanged but for the budget, sent without the limits it does not set.
    expect(scheduleInputOf(opened).input).toEqual({ ...saved, budget: { maxToolCalls: 3, maxDurationMs: 90_000 } });
  });
});

describe('timings in words', () => {
  it('says the cron expression with its zone, or the one time in the zone', () => {
    expect(timingText({ cron: '0 9 * * 1-5', at: null, timeZone: 'Europe/Berlin' })).toBe('cron 0 9 * * 1-5 (Europe/Berlin)');
    expect(timingText({ cron: null, at: '2026-12-01T08:00:00Z', timeZone: 'Europe/Berlin' })).toBe('once, Tue, 1 Dec 2026, 09:00 (Europe/Berlin)');
    expect(dueTimeText('2026-12-01T08:00:05Z', 'UTC')).toBe('Tue, 1 Dec 2026, 08:00:05 (UTC)');
  });
});
