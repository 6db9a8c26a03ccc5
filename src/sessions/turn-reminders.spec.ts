import { type TurnReminder, TurnReminders, withReminders } from './turn-reminders';

const reminder = (kind: string, text: string, data: Record<string, unknown> = {}): TurnReminder => ({ kind, text, data });

describe('TurnReminders.collect', () => {
  it('collects nothing when no source is registered', async () => {
    expect(await new TurnReminders().collect('session-1')).toEqual([]);
  });

  it('asks every source for the session and keeps the registration order, skipping sources with nothing to say', async () => {
    const reminders = new TurnReminders();
    // The first source answers last: the order is the registration's, not the answers'.
    const first = jest.fn(async (sessionId: string) => {
      await new Promise((resolve) => setImmediate(resolve));
      return reminder('runs', `runs of ${sessionId}`, { runIds: ['r1'] });
    });
    const silent = jest.fn(async () => undefined);
    const last = jest.fn(async (sessionId: string) => reminder('audit', `audit of ${sessionId}`));
    reminders.register(first);
    reminders.register(silent);
    reminders.register(last);

    expect(await reminders.collect('session-1')).toEqual([
      reminder('runs', 'runs of session-1', { runIds: ['r1'] }),
      reminder('audit', 'audit of session-1'),
    ]);
    for (const source of [first, silent, last]) expect(source).toHaveBeenCalledWith('session-1');
  });

  it('returns an empty list when every source returns undefined', async () => {
    const reminders = new TurnReminders();
    reminders.register(async () => undefined);
    reminders.register(async () => undefined);
    expect(await reminders.collect('session-1')).toEqual([]);
  });

  it('answers per session', async () => {
    const reminders = new TurnReminders();
    reminders.register(async (sessionId) => (sessionId === 'session-1' ? reminder('runs', 'r1 ended') : undefined));
    expect(await reminders.collect('session-1')).toEqual([reminder('runs', 'r1 ended')]);
    expect(await reminders.collect('session-2')).toEqual([]);
  });
});

describe('withReminders', () => {
  it('leaves the prompt unchanged when there are no reminders', () => {
    expect(withReminders('Fix the build', [])).toBe('Fix the build');
  });

  it('wraps one reminder in <system-reminder> before the prompt', () => {
    expect(withReminders('Fix the build', [reminder('runs', 'Run r1 completed.')])).toBe(
      '<system-reminder>\nRun r1 completed.\n</system-reminder>\n\nFix the build',
    );
  });

  it('wraps each reminder on its own, in order, all before the prompt', () => {
    expect(withReminders('Fix the build', [reminder('runs', 'Run r1 completed.'), reminder('runs', 'Run r2 was interrupted.')])).toBe(
      '<system-reminder>\nRun r1 completed.\n</system-reminder>\n' +
        '<system-reminder>\nRun r2 was interrupted.\n</system-reminder>\n\n' +
        'Fix the build',
    );
  });
});
