import { actingAs, type Actor, SYSTEM_ACTOR, NotFoundError } from '../common';
import { loadConfig } from '../config';
import { type PendingUserInput, UserInputBroker, UserInputTimeoutError } from './user-input-broker';

const TIMEOUT_MS = 100;
const ada: Actor = { kind: 'user', id: 'idp#ada', name: 'Ada', via: 'console' };
const broker = () => new UserInputBroker(loadConfig({ SWITCHBOARD_USER_INPUT_TIMEOUT_MS: String(TIMEOUT_MS) }));

const question = (sessionId = 'session-1', text = 'Deploy to prod?') => ({
  sessionId,
  childSessionId: 'child-1',
  agentName: 'deployer',
  question: text,
  choices: ['yes', 'no'],
  allowFreeform: false,
});

/** Asks and returns the promise together with the question as the broker filed it. */
function ask(b: UserInputBroker, q = question()) {
  let asked: PendingUserInput | undefined;
  const answer = b.ask(q, (full) => {
    asked = full;
  });
  if (!asked) throw new Error('onAsked was not called synchronously');
  return { answer, asked };
}

describe('UserInputBroker', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('files the question with a request id and time, lists it as pending, and resolves on answer', async () => {
    const b = broker();
    const { answer, asked } = ask(b);

    expect(asked).toEqual({
      ...question(),
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      askedAt: expect.any(String),
    });
    expect(new Date(asked.askedAt).toISOString()).toBe(asked.askedAt);
    expect(b.pendingFor('session-1')).toEqual([asked]);

    // issue 27: answered within a person's request, the answer names them.
    const returned = actingAs(ada, () => b.answer('session-1', asked.requestId, { answer: 'yes', wasFreeform: false }));

    expect(returned).toEqual(asked);
    await expect(answer).resolves.toEqual({ answer: 'yes', wasFreeform: false, by: ada });
    expect(b.pendingFor('session-1')).toEqual([]);
  });

  it('keeps several questions apart, each with its own id', async () => {
    const b = broker();
    const first = ask(b, question('session-1', 'first?'));
    const second = ask(b, question('session-1', 'second?'));
    const other = ask(b, question('session-2', 'elsewhere?'));

    expect(first.asked.requestId).not.toBe(second.asked.requestId);
    expect(
      b
        .pendingFor('session-1')
        .map((q) => q.question)
        .sort(),
    ).toEqual(['first?', 'second?']);
    expect(b.pendingFor('session-2').map((q) => q.question)).toEqual(['elsewhere?']);
    expect(b.pendingFor('session-3')).toEqual([]);

    b.answer('session-1', second.asked.requestId, { answer: 'free text', wasFreeform: true });
    await expect(second.answer).resolves.toEqual({ answer: 'free text', wasFreeform: true, by: SYSTEM_ACTOR });
    expect(b.pendingFor('session-1').map((q) => q.question)).toEqual(['first?']);

    b.answer('session-1', first.asked.requestId, { answer: 'no', wasFreeform: false });
    b.answer('session-2', other.asked.requestId, { answer: 'yes', wasFreeform: false });
    await expect(first.answer).resolves.toEqual({ answer: 'no', wasFreeform: false, by: SYSTEM_ACTOR });
    await expect(other.answer).resolves.toEqual({ answer: 'yes', wasFreeform: false, by: SYSTEM_ACTOR });
  });

  it('refuses an unknown request id with NotFoundError', () => {
    const b = broker();
    const { answer } = ask(b);
    answer.catch(() => undefined);

    expect(() => b.answer('session-1', 'no-such-request', { answer: 'yes', wasFreeform: false })).toThrow(NotFoundError);
    expect(() => b.answer('session-1', 'no-such-request', { answer: 'yes', wasFreeform: false })).toThrow(
      'No pending user-input request no-such-request on session session-1',
    );
    expect(b.pendingFor('session-1')).toHaveLength(1);
    b.cancelFor('session-1');
  });

  it("refuses to answer another session's request and leaves it pending", async () => {
    const b = broker();
    const { answer, asked } = ask(b, question('session-1'));

    let thrown: unknown;
    try {
      b.answer('session-2', asked.requestId, { answer: 'yes', wasFreeform: false });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(NotFoundError);
    expect((thrown as NotFoundError).code).toBe('not_found');
    expect((thrown as Error).message).toBe(`No pending user-input request ${asked.requestId} on session session-2`);
    expect(b.pendingFor('session-1')).toEqual([asked]);

    b.answer('session-1', asked.requestId, { answer: 'no', wasFreeform: false });
    await expect(answer).resolves.toEqual({ answer: 'no', wasFreeform: false, by: SYSTEM_ACTOR });
  });

  it('refuses a second answer to the same request', async () => {
    const b = broker();
    const { answer, asked } = ask(b);
    b.answer('session-1', asked.requestId, { answer: 'yes', wasFreeform: false });
    expect(() => b.answer('session-1', asked.requestId, { answer: 'no', wasFreeform: false })).toThrow(NotFoundError);
    await expect(answer).resolves.toEqual({ answer: 'yes', wasFreeform: false, by: SYSTEM_ACTOR });
  });

  describe('timeout', () => {
    it('rejects with UserInputTimeoutError after the configured time and drops the question', async () => {
      jest.useFakeTimers();
      const b = broker();
      const { answer, asked } = ask(b);
      const outcome = answer.then(
        () => 'resolved',
        (error: unknown) => error,
      );

      jest.advanceTimersByTime(TIMEOUT_MS - 1);
      expect(b.pendingFor('session-1')).toEqual([asked]);

      jest.advanceTimersByTime(1);
      const error = await outcome;
      expect(error).toBeInstanceOf(UserInputTimeoutError);
      expect((error as Error).message).toBe(`No answer to "Deploy to prod?" within ${TIMEOUT_MS} ms`);
      expect(b.pendingFor('session-1')).toEqual([]);
      expect(() => b.answer('session-1', asked.requestId, { answer: 'late', wasFreeform: true })).toThrow(NotFoundError);
    });

    it('times out with real timers too (no fake clock)', async () => {
      const b = broker();
      // Read before the timer is armed: read after, a busy machine's delay would shorten what is measured.
      const started = Date.now();
      const { answer } = ask(b);
      await expect(answer).rejects.toBeInstanceOf(UserInputTimeoutError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
      expect(b.pendingFor('session-1')).toEqual([]);
    });

    it('an answered question no longer times out', async () => {
      jest.useFakeTimers();
      const b = broker();
      const { answer, asked } = ask(b);
      b.answer('session-1', asked.requestId, { answer: 'yes', wasFreeform: false });
      expect(jest.getTimerCount()).toBe(0);
      jest.advanceTimersByTime(TIMEOUT_MS * 10);
      await expect(answer).resolves.toEqual({ answer: 'yes', wasFreeform: false, by: SYSTEM_ACTOR });
    });

    it('times out each question on its own clock', async () => {
      jest.useFakeTimers();
      const b = broker();
      const early = ask(b, question('session-1', 'early?'));
      const earlyOutcome = early.answer.catch((e: unknown) => e);
      jest.advanceTimersByTime(60);
      const late = ask(b, question('session-1', 'late?'));
      const lateOutcome = late.answer.catch((e: unknown) => e);

      jest.advanceTimersByTime(40);
      expect(await earlyOutcome).toBeInstanceOf(UserInputTimeoutError);
      expect(b.pendingFor('session-1').map((q) => q.question)).toEqual(['late?']);

      jest.advanceTimersByTime(60);
      expect(await lateOutcome).toBeInstanceOf(UserInputTimeoutError);
      expect(b.pendingFor('session-1')).toEqual([]);
    });
  });

  describe('cancelFor', () => {
    it("rejects the session's pending questions and leaves other sessions' alone", async () => {
      jest.useFakeTimers();
      const b = broker();
      const a1 = ask(b, question('session-1', 'a1?'));
      const a2 = ask(b, question('session-1', 'a2?'));
      const other = ask(b, question('session-2', 'b1?'));
      const a1Outcome = a1.answer.catch((e: unknown) => e);
      const a2Outcome = a2.answer.catch((e: unknown) => e);

      b.cancelFor('session-1');

      for (const outcome of [await a1Outcome, await a2Outcome]) {
        expect(outcome).toBeInstanceOf(Error);
        expect(outcome).not.toBeInstanceOf(UserInputTimeoutError);
        expect((outcome as Error).message).toBe('Session session-1 was destroyed');
      }
      expect(b.pendingFor('session-1')).toEqual([]);
      expect(b.pendingFor('session-2')).toEqual([other.asked]);
      // the cancelled questions' timers are gone; only session-2's remains
      expect(jest.getTimerCount()).toBe(1);

      b.answer('session-2', other.asked.requestId, { answer: 'fine', wasFreeform: true });
      await expect(other.answer).resolves.toEqual({ answer: 'fine', wasFreeform: true, by: SYSTEM_ACTOR });
    });

    it('does nothing for a session without questions', () => {
      const b = broker();
      const { answer, asked } = ask(b, question('session-1'));
      b.cancelFor('session-9');
      expect(b.pendingFor('session-1')).toEqual([asked]);
      b.answer('session-1', asked.requestId, { answer: 'yes', wasFreeform: false });
      return expect(answer).resolves.toEqual({ answer: 'yes', wasFreeform: false, by: SYSTEM_ACTOR });
    });
  });
});
