import { DatabaseUnreachableError } from '../common';
import { CopilotCliUnavailableError } from '../copilot-cli';
import { BudgetExceededError, InvalidRunArgumentsError, PolicyDeniedError, UnknownAgentError } from '../delegation';
import { MAX_ATTEMPTS, startRefusal } from './firing-retry';

const now = new Date('2026-03-01T09:00:00Z');
const after = (ms: number) => new Date(now.getTime() + ms).toISOString();

describe('retry rule of a refused start', () => {
  it.each([
    ['the database away', new DatabaseUnreachableError(new Error('connection terminated')), 'database_unavailable'],
    ['the CLI away', new CopilotCliUnavailableError('the Copilot CLI did not start'), 'cli_unavailable'],
    ['an unexpected error', new Error('socket hang up'), 'start_failed'],
  ])('retries %s 10 s, 60 s, then 300 s later, then fails it for good', (_, error, code) => {
    expect(startRefusal(error, 1, now)).toMatchObject({ code, retryAt: after(10_000) });
    expect(startRefusal(error, 2, now)).toMatchObject({ code, retryAt: after(60_000) });
    expect(startRefusal(error, 3, now)).toMatchObject({ code, retryAt: after(300_000) });
    expect(MAX_ATTEMPTS).toBe(4);
    expect(startRefusal(error, 4, now)).toMatchObject({ code, retryAt: null });
  });

  it('reads a lost PostgreSQL connection as the database away', () => {
    const lost = Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' });
    expect(startRefusal(lost, 1, now)).toMatchObject({ code: 'database_unavailable', retryAt: after(10_000) });
  });

  it.each([
    ['unknown_agent', new UnknownAgentError('gone')],
    ['policy_denied', new PolicyDeniedError('refused')],
    ['budget_exceeded', new BudgetExceededError('nothing left')],
    ['invalid_arguments', new InvalidRunArgumentsError('bad')],
  ])('fails a refusal of the request itself (%s) at once, with its message', (code, error) => {
    expect(startRefusal(error, 1, now)).toEqual({ code, message: error.message, retryAt: null });
  });
});
