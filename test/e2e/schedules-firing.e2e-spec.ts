import { v7 as uuidv7 } from 'uuid';
import { CopilotCliUnavailableError } from '../../src/copilot-cli/copilot-cli.errors';
import { StartRunHandler } from '../../src/delegation/commands/start-run/start-run.handler';
import { InstanceLease } from '../../src/instances/instance-lease';
import { ReadModelDatabase } from '../../src/database/read-model-database';
import { handleCommand } from '../../src/event-store/decider';
import { EventStore } from '../../src/event-store/event-store';
import { runStreamId, scheduleFiringStreamId } from '../../src/event-store/stream-ids';
import { firingDecider } from '../../src/schedules/firing.decider';
import { dueFiringId } from '../../src/schedules/firing-id';
import type { FiringRow, FiringView } from '../../src/schedules/schedule-view';
import { Scheduler } from '../../src/schedules/scheduler';
import { SchedulerClock } from '../../src/schedules/scheduler-clock';
import { SchedulesReadModel } from '../../src/schedules/schedules-read-model';
import { appStoreTargets } from '../fixtures/app-store-targets';
import type { Json, JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

const MINUTE = 60_000;

/**
 * The scheduler clock, controlled: frozen where a test puts it (the scheduler reads nothing else).
 * The loop keeps ticking (every 50 ms); a test that needs "a tick after this" awaits `tickAfter()`.
 */
class ControlledClock {
  private at: number | undefined;

  install(): void {
    jest.spyOn(SchedulerClock.prototype, 'now').mockImplementation(() => new Date(this.at ?? Date.now()));
  }

  set(at: Date | number): void {
    this.at = typeof at === 'number' ? at : at.getTime();
  }

  freeze(): void {
    this.set(Date.now());
  }
}

/**
 * issue 30, with a controlled scheduler clock on the real app, the real Copilot CLI and the scripted
 * model, on SQLite and on PostgreSQL: a schedule fires at its due times and its runs complete; disable
 * stops it; catch-up after downtime follows each policy; overlap skip; a refused start is recorded
 * failed; "run now"; a dead instance's claim is completed with exactly one run.
 */
describe.each(appStoreTargets())('schedules firing on %s', (_, store) => {
  const model = new ScriptedModelServer();
  const clock = new ControlledClock();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);
  let releaseHeld: () => void = () => {};
  let held = new Promise<void>((resolve) => (releaseHeld = resolve));

  const get = <T>(type: abstract new (...args: never[]) => T): T => running.app.app.get(type, { strict: false });

  beforeAll(async () => {
    clock.install();
    await model.start();
    model.models = ['gpt-4.1', 'gpt-scheduled'];
    model.setScript([
      { name: 'held run', systemIncludes: 'SCHEDULED_P', messagesInclude: 'HOLD_RUN', until: () => held, answer: { text: 'HELD_DONE' } },
      { name: 'scheduled run', systemIncludes: 'SCHEDULED_P', answer: { text: 'SCHEDULED_DONE' } },
    ]);
    running = await startRealCliApp(model, { scheduler: { tickMs: 50, minIntervalSeconds: 60 } }, store);
    for (const id of ['nightly', 'doomed']) {
      const agent = { id, name: id, system_message: { mode: 'append', content: 'SCHEDULED_P you run on a schedule.' } };
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 90_000);

  afterAll(async () => {
    releaseHeld();
    await running?.close();
    await model.stop();
    jest.restoreAllMocks();
  });

  beforeEach(() => clock.freeze());

  const setEnabled = async (id: string, enabled: boolean) => expect((await http('PATCH', `/api/schedules/${id}`, { enabled })).status).toBe(200);
  const remove = async (id: string) => expect((await http('DELETE', `/api/schedules/${id}`)).status).toBe(204);

  /** A schedule every minute (unless given otherwise) over the API; its first due time as the API shows it. */
  async function createSchedule(fields: Json): Promise<{ id: string; firstDue: number }> {
    const created = await http('POST', '/api/schedules', {
      agentId: 'nightly',
      prompt: 'Review the changes.',
      cron: '* * * * *',
      overlap: 'allow',
      ...fields,
    });
    expect(created.status).toBe(201);
    return { id: created.body.id, firstDue: Date.parse(created.body.nextFiringAt) };
  }

  /** A tick that began after the clock was last set has ended. */
  async function tickAfter(): Promise<void> {
    const scheduler = get(Scheduler);
    await scheduler.tick();
    await scheduler.tick();
  }

  const firingsOf = async (scheduleId: string): Promise<FiringRow[]> => (await get(SchedulesReadModel).firings(scheduleId, 100)).reverse();
  const getRun = async (runId: string): Promise<Json> => (await http('GET', `/api/runs/${runId}`)).body;
  const runCompleted = (runId: string) => waitUntil(async () => (await getRun(runId)).status === 'completed' && true, `run ${runId} completed`, 30_000);

  it('fires at each due time, once, starting a run (the schedule model on its session) that completes with the scripted answer', async () => {
    const { id, firstDue } = await createSchedule({ model: 'gpt-scheduled', prompt: 'Review the changes (SCHEDULE_MODEL).' });
    clock.set(firstDue - 1);
    await tickAfter();
    expect(await firingsOf(id)).toEqual([]);

    for (const due of [firstDue, firstDue + MINUTE]) {
      clock.set(due + 1_000);
      await tickAfter();
      await tickAfter();
    }
    const firings = await firingsOf(id);
    expect(firings.map((f) => [f.dueAt, f.trigger, f.status, f.attempt])).toEqual([
      [new Date(firstDue).toISOString(), 'cron', 'started', 1],
      [new Date(firstDue + MINUTE).toISOString(), 'cron', 'started', 1],
    ]);
    expect(firings.map((f) => f.firingId)).toEqual([dueFiringId(id, new Date(firstDue)), dueFiringId(id, new Date(firstDue + MINUTE))]);
    for (const firing of firings) {
      await runCompleted(firing.runId!);
      const run = await getRun(firing.runId!);
      expect(run).toMatchObject({
        agentId: 'nightly',
        prompt: 'Review the changes (SCHEDULE_MODEL).',
        output: 'SCHEDULED_DONE',
        parentRunId: null,
        scheduledBy: { scheduleId: id, firingId: firing.firingId },
      });
    }
    const modelsAsked = model.requests.filter((r) => r.allText.includes('SCHEDULE_MODEL')).map((r) => r.model);
    expect(modelsAsked.length).toBeGreaterThanOrEqual(2);
    expect(new Set(modelsAsked)).toEqual(new Set(['gpt-scheduled']));
    const [started] = await get(EventStore).readStream(runStreamId(firings[0].runId!));
    expect(started.metadata).toMatchObject({ actor: `schedule:${id}` });
    await remove(id);
  }, 60_000);

  it('fires nothing while disabled, and again from the next due time once enabled (no catch-up of the disabled time)', async () => {
    const { id, firstDue } = await createSchedule({});
    await setEnabled(id, false);
    clock.set(firstDue + 5 * MINUTE + 1_000);
    await tickAfter();
    expect(await firingsOf(id)).toEqual([]);
    expect((await get(SchedulesReadModel).get(id))?.nextDueAt).toBeNull();

    // Enabling starts from the enable's recorded time: nothing of the disabled stretch is made up.
    clock.freeze();
    await setEnabled(id, true);
    const next = Date.parse((await get(SchedulesReadModel).get(id))!.nextDueAt!);
    clock.set(next + 1_000);
    await tickAfter();
    expect((await firingsOf(id)).map((f) => [f.dueAt, f.status])).toEqual([[new Date(next).toISOString(), 'started']]);
    await remove(id);
  }, 60_000);

  it('catch-up skip: a downtime of ten due times is one skipped record saying how many, then the on-time firing', async () => {
    const { id, firstDue } = await createSchedule({ catchUp: 'skip' });
    const onTime = firstDue + 10 * MINUTE;
    clock.set(onTime + 30_000);
    await tickAfter();
    const firings = await firingsOf(id);
    expect(firings.map((f) => [f.dueAt, f.trigger, f.status, f.missedCount, f.reasonCode])).toEqual([
      [new Date(onTime - MINUTE).toISOString(), 'cron', 'skipped', 10, 'missed'],
      [new Date(onTime).toISOString(), 'cron', 'started', 0, null],
    ]);
    expect(firings[0].reasonMessage).toContain(`10 due times from ${new Date(firstDue).toISOString()}`);
    await runCompleted(firings[1].runId!);
    await remove(id);
  }, 60_000);

  it('catch-up last: the newest missed due time runs once; overlap skip then skips the on-time one while that run runs', async () => {
    const { id, firstDue } = await createSchedule({ catchUp: 'last', overlap: 'skip', prompt: 'Review (HOLD_RUN).' });
    const onTime = firstDue + 10 * MINUTE;
    clock.set(onTime + 30_000);
    await tickAfter();
    const firings = await firingsOf(id);
    expect(firings.map((f) => [f.dueAt, f.trigger, f.status, f.missedCount, f.reasonCode])).toEqual([
      [new Date(onTime - MINUTE).toISOString(), 'catch_up', 'started', 9, null],
      [new Date(onTime).toISOString(), 'cron', 'skipped', 0, 'overlap'],
    ]);
    expect(firings[1].reasonMessage).toContain(firings[0].runId);

    // Once that run ended, the next due time fires again.
    releaseHeld();
    await runCompleted(firings[0].runId!);
    held = new Promise<void>((resolve) => (releaseHeld = resolve));
    clock.set(onTime + MINUTE + 1_000);
    await tickAfter();
    expect((await firingsOf(id)).map((f) => [f.trigger, f.status])).toEqual([
      ['catch_up', 'started'],
      ['cron', 'skipped'],
      ['cron', 'started'],
    ]);
    releaseHeld();
    await remove(id);
  }, 60_000);

  it('records a start refused for good (its agent deleted) as failed with the reason, and does not retry it', async () => {
    const { id, firstDue } = await createSchedule({ agentId: 'doomed' });
    expect((await http('DELETE', '/api/agents/doomed')).status).toBe(200);
    clock.set(firstDue + 1_000);
    await tickAfter();
    const [firing] = await firingsOf(id);
    expect(firing).toMatchObject({ status: 'failed', reasonCode: 'unknown_agent', retryAt: null, attempt: 1 });
    expect(await get(EventStore).streamVersion(runStreamId(firing.runId!))).toBe(0);
    // Past every retry delay: the refused firing stays attempt 1 (the next due times are firings of their own).
    clock.set(firstDue + 10 * MINUTE);
    await tickAfter();
    const later = await firingsOf(id);
    expect(later.find((f) => f.firingId === firing.firingId)).toMatchObject({ status: 'failed', attempt: 1 });
    expect(later.filter((f) => f.status === 'started' || f.status === 'retrying')).toEqual([]);
    await remove(id);
  }, 60_000);

  it('retries a start refused for a temporary cause 10 s later under a new run id, and fails a retry once the schedule is disabled', async () => {
    const { id, firstDue } = await createSchedule({});
    const outage = () =>
      jest.spyOn(StartRunHandler.prototype, 'execute').mockRejectedValueOnce(new CopilotCliUnavailableError('the Copilot CLI did not start'));
    outage();
    clock.set(firstDue + 1_000);
    await tickAfter();
    const [refused] = await firingsOf(id);
    expect(refused).toMatchObject({ status: 'retrying', attempt: 1, reasonCode: 'cli_unavailable', retryAt: new Date(firstDue + 11_000).toISOString() });
    clock.set(firstDue + 10_999);
    await tickAfter();
    expect((await firingsOf(id))[0]).toMatchObject({ status: 'retrying', attempt: 1 });
    clock.set(firstDue + 11_000);
    await tickAfter();
    const [retried] = await firingsOf(id);
    expect(retried).toMatchObject({ firingId: refused.firingId, status: 'started', attempt: 2 });
    expect(retried.runId).not.toBe(refused.runId);
    await runCompleted(retried.runId!);

    // The next due time is refused too; disabled before its retry is due, it is failed, not started.
    outage();
    clock.set(firstDue + MINUTE + 1_000);
    await tickAfter();
    expect((await firingsOf(id))[1]).toMatchObject({ status: 'retrying', attempt: 1 });
    await setEnabled(id, false);
    clock.set(firstDue + MINUTE + 12_000);
    await tickAfter();
    expect((await firingsOf(id))[1]).toMatchObject({ status: 'failed', reasonCode: 'schedule_disabled', retryAt: null });
    await remove(id);
  }, 60_000);

  it('"run now" starts a manual firing at once, disabled or not', async () => {
    const { id } = await createSchedule({});
    await setEnabled(id, false);
    const ran = await http('POST', `/api/schedules/${id}/run`);
    expect(ran.status).toBe(202);
    const view = ran.body as FiringView;
    expect(view).toMatchObject({ scheduleId: id, trigger: 'manual', status: 'started', attempt: 1, runStatus: 'running' });
    expect((await http('GET', `/api/schedules/${id}/firings`)).body.firings).toEqual([expect.objectContaining({ id: view.id, runId: view.runId })]);
    await runCompleted(view.runId!);
    await remove(id);
  }, 60_000);

  it("completes a dead instance's claim with the claimed run id: started once, never a second run", async () => {
    const { id, firstDue } = await createSchedule({});
    await setEnabled(id, false);
    const claim = async (runId: string, due: number, instanceId: string) => {
      const firingId = dueFiringId(id, new Date(due));
      const data = {
        firingId,
        scheduleId: id,
        dueAt: new Date(due).toISOString(),
        trigger: 'cron' as const,
        runId,
        instanceId,
        firedAt: new Date(due).toISOString(),
        missedCount: 0,
      };
      await handleCommand(
        get(EventStore),
        firingDecider,
        scheduleFiringStreamId(firingId),
        { type: 'claim', claim: data, now: due },
        { expectedVersion: 0 },
      );
      return firingId;
    };
    // One claim died before its run was recorded; the other after (its run exists, firing_started missing).
    const dead = `dead-${uuidv7()}`;
    const unstarted = await claim(uuidv7(), firstDue, dead);
    const startedRunId = uuidv7();
    const startedFiring = await claim(startedRunId, firstDue + MINUTE, dead);
    const view = (await http('POST', `/api/schedules/${id}/run`)).body as FiringView;
    await runCompleted(view.runId!);
    // Stand-in for the run the dead instance recorded: a run under the claimed id exists already.
    const { instanceLeases } = get(ReadModelDatabase).tables;
    const past = new Date(Date.now() - 60_000).toISOString();
    await get(ReadModelDatabase)
      .orm.insert(instanceLeases)
      .values({ instanceId: dead, address: 'http://127.0.0.1:1', pid: 1, hostname: 'gone', heartbeatAt: past, expiresAt: past, startedAt: past });
    await get(EventStore).appendMany([
      {
        streamId: runStreamId(startedRunId),
        expectedVersion: 'no_stream',
        events: (await get(EventStore).readStream(runStreamId(view.runId!))).slice(0, 1).map((e) => ({
          type: e.type,
          data: {
            ...e.data,
            runId: startedRunId,
            rootRunId: startedRunId,
            path: `/${startedRunId}/`,
            threadId: `sub-agent-${startedRunId}`,
            scheduledBy: { scheduleId: id, firingId: startedFiring },
          },
        })),
      },
    ]);

    await waitUntil(async () => (await firingsOf(id)).every((f) => f.status === 'started') && true, 'the dead claims completed', 15_000);
    const firings = await firingsOf(id);
    const byId = new Map(firings.map((f) => [f.firingId, f]));
    expect(byId.get(unstarted)).toMatchObject({ status: 'started', attempt: 1 });
    await runCompleted(byId.get(unstarted)!.runId!);
    expect(byId.get(startedFiring)).toMatchObject({ status: 'started', runId: startedRunId });
    const runsOfSchedule = await running.store.query(`SELECT run_id FROM runs WHERE scheduled_by LIKE '%${id}%'`);
    expect(runsOfSchedule).toHaveLength(3);
    await remove(id);
  }, 60_000);
  it('after a crash, the restarted service completes the claim its previous life left starting', async () => {
    const { id, firstDue } = await createSchedule({});
    await setEnabled(id, false);
    // What a crash between the claim and the run's start leaves: a claim by this process, still starting.
    const firingId = dueFiringId(id, new Date(firstDue));
    const claimed = {
      firingId,
      scheduleId: id,
      dueAt: new Date(firstDue).toISOString(),
      trigger: 'cron' as const,
      runId: uuidv7(),
      instanceId: get(InstanceLease).instanceId,
      firedAt: new Date(firstDue).toISOString(),
      missedCount: 0,
    };
    await handleCommand(
      get(EventStore),
      firingDecider,
      scheduleFiringStreamId(firingId),
      { type: 'claim', claim: claimed, now: firstDue },
      { expectedVersion: 0 },
    );
    await running.restart();
    const firing = await waitUntil(
      async () => (await firingsOf(id)).find((f) => f.status !== 'starting'),
      'the claim completed after the restart',
      15_000,
    );
    expect(firing).toMatchObject({ firingId, status: 'started', runId: claimed.runId, attempt: 1 });
    await runCompleted(claimed.runId);
    await remove(id);
  }, 90_000);
});
