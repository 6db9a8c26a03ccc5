import { deciderSpec } from '../../test/fixtures/decider-spec';
import { runStartedData } from '../../test/fixtures/run-fixtures';
import { foldRun, type RunCommand, runDecider, type RunState } from './run.decider';
import { RunStateError, StaleRunCompletionError } from './run.errors';
import { type RunEvent, RunEvents, type RunStartedData, type StoppedBy } from './run.events';

const startData = runStartedData;

const userStop: StoppedBy = { actor: 'session:s1', reason: 'no longer needed' };

const started = (data: RunStartedData = startData()): RunEvent => ({ type: RunEvents.started, data });
const completed = (epoch: number, output: string): RunEvent => ({ type: RunEvents.completed, data: { runId: 'r1', epoch, output } });
const failed = (epoch: number, error: string): RunEvent => ({ type: RunEvents.failed, data: { runId: 'r1', epoch, error } });
const stopped = (epoch: number, stoppedBy: StoppedBy = userStop, forced = false): RunEvent => ({
  type: RunEvents.stopped,
  data: { runId: 'r1', epoch, stoppedBy, forced },
});
const interrupted = (epoch: number, reason = 'switchboard restarted'): RunEvent => ({
  type: RunEvents.interrupted,
  data: { runId: 'r1', epoch, reason },
});
const resumed = (epoch: number, prompt = 'carry on', resumedBy = 'api'): RunEvent => ({
  type: RunEvents.resumed,
  data: { runId: 'r1', epoch, prompt, resumedBy },
});

const given = deciderSpec(runDecider);

/** A run of launch 1 in each state it can end in, with the history that led there. */
const endedRuns: Array<[RunState['status'], RunEvent[]]> = [
  ['completed', [started(), completed(1, 'done')]],
  ['failed', [started(), failed(1, 'boom')]],
  ['stopped', [started(), stopped(1)]],
  ['interrupted', [started(), interrupted(1)]],
];

describe('run decider', () => {
  describe('start', () => {
    it('starts a new run at launch 1, whatever epoch the command carries', () => {
      given()
        .when({ type: 'start', data: startData({ epoch: 7 }) })
        .then([started(startData({ epoch: 1 }))]);
    });

    it('keeps lineage and policy of the command in the started event', () => {
      const child = startData({
        runId: 'r2',
        parentRunId: 'r1',
        parentThreadId: 'sub-agent-r1',
        ownerThreadId: 'sub-agent-r1',
        rootRunId: 'r1',
        depth: 2,
        path: 'r1/r2',
        threadId: 'sub-agent-r2',
      });
      given()
        .when({ type: 'start', data: child })
        .then([started(child)]);
    });

    it('refuses to start a run that already exists, naming it', () => {
      given(started())
        .when({ type: 'start', data: startData() })
        .thenThrows(RunStateError, /^Run r1 already exists$/);
    });

    it('refuses a second start of a scheduled run id, so a firing completed twice never doubles its run (issue 30)', () => {
      const scheduled = startData({
        scheduledBy: { scheduleId: 's1', firingId: 'f1' },
        session: { model: 'gpt-test', permissionPolicy: { allowKinds: ['read'], approveOwnTools: true } },
      });
      given()
        .when({ type: 'start', data: scheduled })
        .then([started(scheduled)]);
      given(started(scheduled))
        .when({ type: 'start', data: scheduled })
        .thenThrows(RunStateError, /^Run r1 already exists$/);
    });

    it('refuses to start a run again after it ended', () => {
      given(started(), completed(1, 'done'))
        .when({ type: 'start', data: startData() })
        .thenThrows(RunStateError, /Run r1 already exists/);
    });
  });

  describe('any command but start on a run that does not exist', () => {
    it.each<RunCommand>([
      { type: 'complete', epoch: 1, output: 'x' },
      { type: 'fail', epoch: 1, error: 'x' },
      { type: 'stop', stoppedBy: userStop, forced: false },
      { type: 'interrupt', reason: 'x' },
      { type: 'resume', prompt: 'x', resumedBy: 'api' },
    ])('refuses $type', (command) => {
      given()
        .when(command)
        .thenThrows(RunStateError, /The run does not exist yet/);
    });
  });

  describe('complete', () => {
    it('completes a running run of the current launch with its output', () => {
      given(started())
        .when({ type: 'complete', epoch: 1, output: 'LGTM' })
        .then([completed(1, 'LGTM')]);
    });

    it('completes the resumed launch with the new epoch', () => {
      given(started(), interrupted(1), resumed(2))
        .when({ type: 'complete', epoch: 2, output: 'second' })
        .then([completed(2, 'second')]);
    });

    it('refuses a completion from a launch that never happened', () => {
      given(started())
        .when({ type: 'complete', epoch: 2, output: 'x' })
        .thenThrows(StaleRunCompletionError, /^Run r1: a completion from launch 2 arrived, but launch 1 is current$/);
    });

    it('refuses a stale completion of launch 1 after the run was resumed to launch 2, and the state stays as it was', () => {
      const history = [started(), interrupted(1), resumed(2)];
      const before = foldRun(history);
      given(...history)
        .when({ type: 'complete', epoch: 1, output: 'late output of launch 1' })
        .thenThrows(StaleRunCompletionError, /a completion from launch 1 arrived, but launch 2 is current/);
      // the decider is pure: refusing writes nothing, so the folded state is unchanged
      expect(foldRun(history)).toEqual(before);
      expect(before).toMatchObject({ status: 'running', epoch: 2, output: null, error: null });
    });

    it('refuses a stale completion with the stale-completion code', () => {
      const state = foldRun([started(), stopped(1), resumed(2)]);
      let thrown: unknown;
      try {
        runDecider.decide({ type: 'complete', epoch: 1, output: 'x' }, state);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(StaleRunCompletionError);
      expect((thrown as StaleRunCompletionError).code).toBe('stale_completion');
    });

    it.each(endedRuns)('refuses to complete a %s run of the current launch', (status, history) => {
      given(...history)
        .when({ type: 'complete', epoch: 1, output: 'x' })
        .thenThrows(RunStateError, new RegExp(`^Run r1 is ${status}; only a running run can complete$`));
    });
  });

  describe('fail', () => {
    it('fails a running run of the current launch with its error', () => {
      given(started())
        .when({ type: 'fail', epoch: 1, error: 'model quota exceeded' })
        .then([failed(1, 'model quota exceeded')]);
    });

    it('fails a resumed launch with its epoch', () => {
      given(started(), stopped(1), resumed(2))
        .when({ type: 'fail', epoch: 2, error: 'boom' })
        .then([failed(2, 'boom')]);
    });

    it('refuses a stale failure of launch 1 after a resume to launch 2', () => {
      given(started(), interrupted(1), resumed(2))
        .when({ type: 'fail', epoch: 1, error: 'late' })
        .thenThrows(StaleRunCompletionError, /^Run r1: a failure from launch 1 arrived, but launch 2 is current$/);
    });

    it.each(endedRuns)('refuses to fail a %s run', (status, history) => {
      given(...history)
        .when({ type: 'fail', epoch: 1, error: 'x' })
        .thenThrows(RunStateError, new RegExp(`^Run r1 is ${status}; only a running run can fail$`));
    });
  });

  describe('warn_budget', () => {
    const breach = { limit: 'max_tokens' as const, allowed: 100, used: 85 };
    const warned: RunEvent = { type: RunEvents.budgetWarned, data: { runId: 'r1', ...breach } };

    it('records a budget warning of a running run', () => {
      given(started()).when({ type: 'warn_budget', breach }).then([warned]);
    });

    it('warns about each limit once, and not about a run that ended', () => {
      given(started(), warned)
        .when({ type: 'warn_budget', breach: { ...breach, used: 95 } })
        .then([]);
      given(started(), warned)
        .when({ type: 'warn_budget', breach: { limit: 'max_runs', allowed: 5, used: 4 } })
        .then([{ type: RunEvents.budgetWarned, data: { runId: 'r1', limit: 'max_runs', allowed: 5, used: 4 } }]);
      given(started(), completed(1, 'done')).when({ type: 'warn_budget', breach }).then([]);
    });

    it('folds the limits warned about; a budget stop is a stop like any other', () => {
      const byBudget: StoppedBy = { actor: 'budget', reason: 'budget_exceeded', limit: 'max_tokens', allowed: 100, used: 130 };
      expect(foldRun([started(), warned, stopped(1, byBudget)])).toMatchObject({ status: 'stopped', budgetWarned: ['max_tokens'], stoppedBy: byBudget });
    });
  });

  describe('stop', () => {
    it('stops a running run, naming who stopped it', () => {
      given(started())
        .when({ type: 'stop', stoppedBy: userStop, forced: false })
        .then([stopped(1, userStop, false)]);
    });

    it('records a forced stop that cascaded from a parent, at the current epoch', () => {
      const cascade: StoppedBy = { actor: 'switchboard', cascadeFrom: 'r0', reason: 'parent stopped' };
      given(started(), interrupted(1), resumed(2))
        .when({ type: 'stop', stoppedBy: cascade, forced: true })
        .then([stopped(2, cascade, true)]);
    });

    it.each(endedRuns)('refuses to stop a %s run', (status, history) => {
      given(...history)
        .when({ type: 'stop', stoppedBy: userStop, forced: false })
        .thenThrows(RunStateError, new RegExp(`^Run r1 is ${status}; there is nothing to stop$`));
    });
  });

  describe('interrupt', () => {
    it('interrupts a running run with the reason', () => {
      given(started())
        .when({ type: 'interrupt', reason: 'switchboard restarted' })
        .then([interrupted(1, 'switchboard restarted')]);
    });

    it('interrupts a running run when the epoch given is the current one', () => {
      given(started(), stopped(1), resumed(2))
        .when({ type: 'interrupt', epoch: 2, reason: 'lost' })
        .then([interrupted(2, 'lost')]);
    });

    it('does nothing for an epoch that is not the current one', () => {
      given(started(), stopped(1), resumed(2)).when({ type: 'interrupt', epoch: 1, reason: 'lost' }).then([]);
      given(started()).when({ type: 'interrupt', epoch: 2, reason: 'lost' }).then([]);
    });

    it.each(endedRuns)('does nothing for a %s run, so recovery may repeat it', (_status, history) => {
      given(...history)
        .when({ type: 'interrupt', reason: 'again' })
        .then([]);
      given(...history)
        .when({ type: 'interrupt', epoch: 1, reason: 'again' })
        .then([]);
    });
  });

  describe('resume', () => {
    it('resumes an interrupted run as launch epoch+1', () => {
      given(started(), interrupted(1))
        .when({ type: 'resume', prompt: 'continue please', resumedBy: 'session:s1' })
        .then([resumed(2, 'continue please', 'session:s1')]);
    });

    it('resumes a stopped run as launch epoch+1', () => {
      given(started(), stopped(1))
        .when({ type: 'resume', prompt: 'go on', resumedBy: 'api' })
        .then([resumed(2, 'go on', 'api')]);
    });

    it("records the new launch's trace it is given (issue 28)", () => {
      const trace = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), parentSpanId: 'c'.repeat(16) };
      given(started(), interrupted(1))
        .when({ type: 'resume', prompt: 'go on', resumedBy: 'api', trace })
        .then([{ type: RunEvents.resumed, data: { runId: 'r1', epoch: 2, prompt: 'go on', resumedBy: 'api', trace } }]);
    });

    it('counts launches across several resumes', () => {
      given(started(), interrupted(1), resumed(2), stopped(2), resumed(3), interrupted(3))
        .when({ type: 'resume', prompt: 'again', resumedBy: 'api' })
        .then([resumed(4, 'again', 'api')]);
    });

    it('refuses to resume a running run and says to wait for it or stop it', () => {
      given(started())
        .when({ type: 'resume', prompt: 'x', resumedBy: 'api' })
        .thenThrows(
          RunStateError,
          /^Run r1 is running; only an interrupted or stopped run can be resumed \(it is still running: wait for it or stop it\)$/,
        );
    });

    it.each(endedRuns.filter(([status]) => status === 'completed' || status === 'failed'))(
      'refuses to resume a %s run, saying only interrupted or stopped runs can be',
      (status, history) => {
        given(...history)
          .when({ type: 'resume', prompt: 'x', resumedBy: 'api' })
          .thenThrows(RunStateError, new RegExp(`^Run r1 is ${status}; only an interrupted or stopped run can be resumed$`));
      },
    );
  });

  describe('link_remote_task (issue 43)', () => {
    const remoteStart = started(startData({ remote: { a2a: 'https://agents.example.com/a2a/researcher/.well-known/agent-card.json' } }));
    const link = { taskId: 't-1', contextId: 'c-1', service: 'Researcher', instanceId: 'i-1' };
    const linked = (epoch: number, over: Partial<typeof link> = {}): RunEvent => ({
      type: RunEvents.remoteTaskLinked,
      data: { runId: 'r1', epoch, ...link, ...over },
    });

    it("records the remote task a remote agent's running launch follows", () => {
      given(remoteStart)
        .when({ type: 'link_remote_task', epoch: 1, ...link })
        .then([linked(1)]);
    });

    it('records another instance taking over the task, and nothing for the same link again', () => {
      given(remoteStart, linked(1))
        .when({ type: 'link_remote_task', epoch: 1, ...link, instanceId: 'i-2' })
        .then([linked(1, { instanceId: 'i-2' })]);
      given(remoteStart, linked(1))
        .when({ type: 'link_remote_task', epoch: 1, ...link })
        .then([]);
    });

    it('refuses a link from an earlier launch, of a run that ended, and of a run that runs here', () => {
      given(remoteStart, interrupted(1), resumed(2))
        .when({ type: 'link_remote_task', epoch: 1, ...link })
        .thenThrows(StaleRunCompletionError, /a remote task of launch 1 arrived, but launch 2 is current/);
      given(remoteStart, stopped(1))
        .when({ type: 'link_remote_task', epoch: 1, ...link })
        .thenThrows(RunStateError, /Run r1 is stopped; only a running run follows a remote task/);
      given(started())
        .when({ type: 'link_remote_task', epoch: 1, ...link })
        .thenThrows(RunStateError, /runs \S+ here; it has no remote task/);
    });

    it("records the usage the remote task's service reported, of the task the launch follows only", () => {
      const usage = { taskId: 't-1', totalTokens: 1200, cost: 0.02, currency: 'USD' };
      given(remoteStart, linked(1))
        .when({ type: 'report_remote_usage', epoch: 1, ...usage })
        .then([{ type: RunEvents.remoteUsageReported, data: { runId: 'r1', epoch: 1, ...usage } }]);
      given(remoteStart, linked(1))
        .when({ type: 'report_remote_usage', epoch: 1, ...usage, taskId: 't-9' })
        .thenThrows(RunStateError, /does not follow remote task t-9/);
    });

    it('keeps the last link through a resume, so the next launch continues in its context', () => {
      const state = foldRun([remoteStart, linked(1), interrupted(1), resumed(2)]);
      expect(state).toMatchObject({ status: 'running', epoch: 2, remoteTask: { epoch: 1, taskId: 't-1', contextId: 'c-1' } });
    });
  });

  describe('evolve and fold', () => {
    it('has no state before the run started', () => {
      expect(foldRun([])).toBeUndefined();
    });

    it('ignores events before started and events of other types', () => {
      expect(foldRun([completed(1, 'x'), stopped(1), resumed(2)])).toBeUndefined();
      const state = foldRun([started()]);
      expect(foldRun([started(), { type: RunEvents.progress, data: {} }, { type: 'something.else', data: {} }])).toEqual(state);
    });

    it('folds started into a running run of launch 1 with nothing else set', () => {
      expect(foldRun([started()])).toEqual<RunState>({
        started: startData(),
        status: 'running',
        epoch: 1,
        output: null,
        error: null,
        stoppedBy: null,
        budgetWarned: [],
        remoteTask: null,
      });
    });

    it('folds a completion: completed with its output', () => {
      expect(foldRun([started(), completed(1, 'LGTM')])).toEqual<RunState>({
        started: startData(),
        status: 'completed',
        epoch: 1,
        output: 'LGTM',
        error: null,
        stoppedBy: null,
        budgetWarned: [],
        remoteTask: null,
      });
    });

    it('folds a failure: failed with its error', () => {
      expect(foldRun([started(), failed(1, 'boom')])).toMatchObject({ status: 'failed', epoch: 1, output: null, error: 'boom', stoppedBy: null });
    });

    it('folds a stop: stopped, naming who stopped it', () => {
      expect(foldRun([started(), stopped(1)])).toMatchObject({ status: 'stopped', epoch: 1, output: null, error: null, stoppedBy: userStop });
    });

    it('folds an interrupt: interrupted, with the reason as error', () => {
      expect(foldRun([started(), interrupted(1, 'lost the CLI')])).toMatchObject({
        status: 'interrupted',
        epoch: 1,
        error: 'lost the CLI',
        stoppedBy: null,
      });
    });

    it('folds a resume: running again at the new epoch, error and stopper cleared', () => {
      expect(foldRun([started(), interrupted(1), resumed(2)])).toMatchObject({ status: 'running', epoch: 2, error: null, stoppedBy: null });
      expect(foldRun([started(), stopped(1), resumed(2)])).toMatchObject({ status: 'running', epoch: 2, error: null, stoppedBy: null });
    });

    it('folds the full history of a run that was interrupted, resumed, stopped, resumed and completed', () => {
      const history = [
        started(),
        interrupted(1, 'switchboard restarted'),
        resumed(2, 'continue', 'session:s1'),
        stopped(2, { actor: 'api', reason: 'pause' }, true),
        resumed(3, 'finish it', 'api'),
        completed(3, 'all done'),
      ];
      expect(foldRun(history)).toEqual<RunState>({
        started: startData(),
        status: 'completed',
        epoch: 3,
        output: 'all done',
        error: null,
        stoppedBy: null,
        budgetWarned: [],
        remoteTask: null,
      });
    });

    it('folds the full history of a run that ended stopped after a resume', () => {
      const stopper: StoppedBy = { actor: 'switchboard', reason: 'timeout after 60000 ms' };
      expect(foldRun([started(), interrupted(1), resumed(2), stopped(2, stopper)])).toEqual<RunState>({
        started: startData(),
        status: 'stopped',
        epoch: 2,
        output: null,
        error: null,
        stoppedBy: stopper,
        budgetWarned: [],
        remoteTask: null,
      });
    });

    it('folds the full history of a run that failed after a resume', () => {
      expect(foldRun([started(), stopped(1), resumed(2), failed(2, 'crashed')])).toEqual<RunState>({
        started: startData(),
        status: 'failed',
        epoch: 2,
        output: null,
        error: 'crashed',
        stoppedBy: null,
        budgetWarned: [],
        remoteTask: null,
      });
    });

    it('evolves the events the decider emits into the state the next command sees', () => {
      let state: RunState | undefined;
      const apply = (command: RunCommand) => {
        for (const event of runDecider.decide(command, state)) state = runDecider.evolve(state, event);
      };
      apply({ type: 'start', data: startData() });
      apply({ type: 'interrupt', reason: 'restart' });
      apply({ type: 'resume', prompt: 'go', resumedBy: 'api' });
      expect(state).toMatchObject({ status: 'running', epoch: 2 });
      expect(() => apply({ type: 'complete', epoch: 1, output: 'stale' })).toThrow(StaleRunCompletionError);
      apply({ type: 'complete', epoch: 2, output: 'fresh' });
      expect(state).toMatchObject({ status: 'completed', epoch: 2, output: 'fresh', error: null });
    });
  });
});
