import { runStartedData, runState } from '../../test/fixtures/run-fixtures';
import { assertOwner, callerActor, callerThread, type RunCaller, type RunSummary, toSummary } from './run-caller';
import type { RunState } from './run.decider';
import { PolicyDeniedError } from './run.errors';
import type { RunStartedData } from './run.events';

const startData = (overrides: Partial<RunStartedData> = {}) => runStartedData({ parentThreadId: 'session-1', ownerThreadId: 'session-1', ...overrides });

const state = (overrides: Partial<RunState> = {}, started: Partial<RunStartedData> = {}): RunState => runState(overrides, startData(started));

describe('callerThread and callerActor', () => {
  it('names the API thread and actor for an API caller', () => {
    expect(callerThread({ kind: 'api' })).toBe('api');
    expect(callerActor({ kind: 'api' })).toBe('api');
    expect(callerActor({ kind: 'api', actor: 'ops@example.com' })).toBe('ops@example.com');
  });

  it('names the session thread and actor for a tool caller', () => {
    const caller: RunCaller = { kind: 'tool', sessionId: 'session-1', agentName: 'helper' };
    expect(callerThread(caller)).toBe('session-1');
    expect(callerActor(caller)).toBe('session:session-1');
  });
});

describe('assertOwner', () => {
  it('lets the API act on any run, whoever owns it', () => {
    expect(() => assertOwner(state({}, { ownerThreadId: 'session-9' }), { kind: 'api' })).not.toThrow();
    expect(() => assertOwner(state({}, { ownerThreadId: 'api' }), { kind: 'api', actor: 'ops' })).not.toThrow();
  });

  it('lets a tool call from the owner thread through', () => {
    expect(() => assertOwner(state(), { kind: 'tool', sessionId: 'session-1' })).not.toThrow();
    expect(() => assertOwner(state(), { kind: 'tool', sessionId: 'session-1', agentName: 'helper' })).not.toThrow();
  });

  it('refuses a tool call from another thread with policy_denied, naming the run', () => {
    let thrown: unknown;
    try {
      assertOwner(state(), { kind: 'tool', sessionId: 'session-2' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PolicyDeniedError);
    const denied = thrown as PolicyDeniedError;
    expect(denied.code).toBe('policy_denied');
    expect(denied.message).toBe('Run r1 belongs to another thread; a run can only be controlled by the thread that started it');
    expect(denied.details).toEqual({ runId: 'r1' });
  });

  it('refuses a tool call for a run the API owns', () => {
    expect(() => assertOwner(state({}, { ownerThreadId: 'api' }), { kind: 'tool', sessionId: 'api-session' })).toThrow(PolicyDeniedError);
  });

  it('refuses the child thread itself: the parent owns the run, not the run its own thread', () => {
    expect(() => assertOwner(state(), { kind: 'tool', sessionId: 'sub-agent-r1' })).toThrow(PolicyDeniedError);
  });
});

describe('toSummary', () => {
  /** The summary of run r1 of code-reviewer in the background, with what a case expects of it. */
  const summary = (expected: Pick<RunSummary, 'status'> & Partial<RunSummary>): RunSummary => ({
    run_id: 'r1',
    agent_id: 'code-reviewer',
    background: true,
    ...expected,
  });

  it('summarises a running run without output or error', () => {
    expect(toSummary(state())).toEqual(summary({ status: 'running' }));
  });

  it('gives the output of a completed run, and no error', () => {
    expect(toSummary(state({ status: 'completed', output: 'LGTM' }, { background: false }))).toEqual(
      summary({ status: 'completed', background: false, output: 'LGTM' }),
    );
  });

  it('keeps an empty output of a completed run', () => {
    expect(toSummary(state({ status: 'completed', output: '' })).output).toBe('');
  });

  it('gives run_failed with the error of a failed run, and no output', () => {
    expect(toSummary(state({ status: 'failed', error: 'model quota exceeded' }))).toEqual(
      summary({ status: 'failed', error: { code: 'run_failed', message: 'model quota exceeded' } }),
    );
  });

  it('gives a generic message for a failed run without an error', () => {
    expect(toSummary(state({ status: 'failed' })).error).toEqual({ code: 'run_failed', message: 'the run failed' });
  });

  it('gives run_interrupted with the reason and how to go on', () => {
    expect(toSummary(state({ status: 'interrupted', error: 'switchboard restarted' }))).toEqual(
      summary({
        status: 'interrupted',
        error: { code: 'run_interrupted', message: 'switchboard restarted; resume it with agent_run {run_id} or stop it with agent_stop' },
      }),
    );
    expect(toSummary(state({ status: 'interrupted' })).error).toEqual({
      code: 'run_interrupted',
      message: 'the run was interrupted; resume it with agent_run {run_id} or stop it with agent_stop',
    });
  });

  it('gives run_stopped naming who stopped the run and why', () => {
    expect(toSummary(state({ status: 'stopped', stoppedBy: { actor: 'session:session-1', reason: 'no longer needed' } }))).toEqual(
      summary({ status: 'stopped', error: { code: 'run_stopped', message: 'stopped by session:session-1: no longer needed' } }),
    );
    expect(toSummary(state({ status: 'stopped', stoppedBy: { actor: 'switchboard', cascadeFrom: 'r0', reason: 'parent stopped' } })).error).toEqual({
      code: 'run_stopped',
      message: 'stopped by switchboard: parent stopped',
    });
  });

  it('gives no output for any status but completed', () => {
    for (const status of ['running', 'failed', 'stopped', 'interrupted'] as const) {
      expect(toSummary(state({ status, stoppedBy: { actor: 'api', reason: 'x' } }))).not.toHaveProperty('output');
    }
  });
});
