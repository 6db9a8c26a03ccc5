import { asc } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { handleCommand } from '../../src/event-store/decider';
import { scheduleFiringStreamId, scheduleStreamId } from '../../src/event-store/stream-ids';
import { type FiringCommand, firingDecider } from '../../src/schedules/firing.decider';
import { dueFiringId, manualFiringId } from '../../src/schedules/firing-id';
import { SchedulesProjection } from '../../src/schedules/projections/schedules.projection';
import { type ScheduleCommand, scheduleDecider } from '../../src/schedules/schedule.decider';
import type { ScheduleDefinition } from '../../src/schedules/schedule.events';
import { nextDueAfter } from '../../src/schedules/schedule-timing';
import { SchedulesReadModel } from '../../src/schedules/schedules-read-model';
import { eventStoreTargets, type EventStoreTarget } from '../fixtures/event-store-targets';

/**
 * issue 30 on both databases: the inline schedules projection keeps each schedule's next due time
 * from its definition and the firings recorded (never from the wall clock), one row per firing with
 * its status, and a rebuild from the log gives the same rows in both tables.
 */
describe.each(eventStoreTargets())('schedules read model on %s', (_name, open) => {
  let target: EventStoreTarget;
  let readModel: SchedulesReadModel;

  beforeEach(async () => {
    target = await open({ projections: () => [new SchedulesProjection()] });
    readModel = new SchedulesReadModel(target.db);
  });

  afterEach(() => target.close());

  const daily: ScheduleDefinition = {
    name: 'Nightly review',
    agentId: 'code-reviewer',
    prompt: 'Review the day',
    model: 'gpt-4.1',
    permissionPolicy: { allowKinds: ['read'], approveOwnTools: true },
    budget: { max_runs: 5 },
    cron: '0 2 * * *',
    at: null,
    timeZone: 'Europe/Berlin',
    endsAt: null,
    overlap: 'skip',
    catchUp: 'skip',
  };

  const onSchedule = (id: string, command: ScheduleCommand) =>
    handleCommand(target.store, scheduleDecider, scheduleStreamId(id), command, { metadata: {} });
  const onFiring = (firingId: string, command: FiringCommand) =>
    handleCommand(target.store, firingDecider, scheduleFiringStreamId(firingId), command, { metadata: {} });
  const create = async (definition = daily, enabled = true) => {
    const id = uuidv7();
    await onSchedule(id, { type: 'create', scheduleId: id, definition, enabled, now: new Date(), minIntervalSeconds: 60 });
    return id;
  };
  const recordedAt = async (streamId: string, version: number) => (await target.store.readStream(streamId))[version - 1].recordedAt;
  const claim = (firingId: string, scheduleId: string, dueAt: string, trigger: 'cron' | 'manual' = 'cron', runId = uuidv7()) =>
    onFiring(firingId, {
      type: 'claim',
      claim: { firingId, scheduleId, dueAt, trigger, runId, instanceId: 'i1', firedAt: dueAt, missedCount: 0 },
      now: Date.parse(dueAt),
    });
  const snapshot = async () => {
    const { schedules, scheduleFirings } = target.db.tables;
    return {
      schedules: await target.db.orm.select().from(schedules).orderBy(asc(schedules.scheduleId)),
      firings: await target.db.orm.select().from(scheduleFirings).orderBy(asc(scheduleFirings.firingId)),
    };
  };

  it('keeps the next due time as the schedule is created, fires, is turned off and on, and changes its timing; a rebuild gives the same rows', async () => {
    const id = await create();
    const createdAt = await recordedAt(scheduleStreamId(id), 1);
    const firstDue = nextDueAfter(daily, new Date(createdAt))!.toISOString();
    expect(await readModel.get(id)).toMatchObject({
      name: 'Nightly review',
      model: 'gpt-4.1',
      budget: JSON.stringify({ max_runs: 5 }),
      enabled: true,
      version: 1,
      cursorAt: createdAt,
      nextDueAt: firstDue,
      lastFiringId: null,
    });
    // 02:00 in Berlin: 01:00 UTC in winter.
    expect(firstDue).toMatch(/T01:00:00\.000Z$/);
    expect((await readModel.dueBy(new Date(firstDue))).map((row) => row.scheduleId)).toEqual([id]);
    expect(await readModel.dueBy(new Date(Date.parse(firstDue) - 1))).toEqual([]);

    // It fires: the cursor moves to the due time, the next one is the day after, the firing is its last.
    const f1 = dueFiringId(id, new Date(firstDue));
    await claim(f1, id, firstDue, 'cron', 'run-1');
    const secondDue = nextDueAfter(daily, new Date(firstDue))!.toISOString();
    expect(await readModel.get(id)).toMatchObject({ cursorAt: firstDue, nextDueAt: secondDue, lastFiringId: f1, lastDueAt: firstDue });
    expect(await readModel.firing(f1)).toMatchObject({ status: 'starting', runId: 'run-1', attempt: 1, instanceId: 'i1' });
    expect((await readModel.startingFiringsOf('i1')).map((row) => row.firingId)).toEqual([f1]);
    expect(await readModel.lastStartedFiring(id)).toMatchObject({ firingId: f1 });
    await onFiring(f1, { type: 'start', startedAt: firstDue });
    expect(await readModel.firing(f1)).toMatchObject({ status: 'started', startedAt: firstDue });
    expect(await readModel.startingFiringsOf('i1')).toEqual([]);

    // A failed start waits for its retry time; "run now" leaves the due times alone.
    const f2 = dueFiringId(id, new Date(secondDue));
    await claim(f2, id, secondDue);
    const retryAt = new Date(Date.parse(secondDue) + 10_000).toISOString();
    await onFiring(f2, { type: 'fail', failure: { code: 'cli_unavailable', message: 'the CLI is down', retryAt, failedAt: secondDue } });
    expect(await readModel.firing(f2)).toMatchObject({ status: 'retrying', retryAt, reasonCode: 'cli_unavailable', reasonMessage: 'the CLI is down' });
    expect((await readModel.retryingBy(new Date(retryAt))).map((row) => row.firingId)).toEqual([f2]);
    expect(await readModel.retryingBy(new Date(Date.parse(retryAt) - 1))).toEqual([]);
    const f3 = manualFiringId();
    await claim(f3, id, secondDue, 'manual');
    const thirdDue = nextDueAfter(daily, new Date(secondDue))!.toISOString();
    expect(await readModel.get(id)).toMatchObject({ cursorAt: secondDue, nextDueAt: thirdDue, lastFiringId: f3 });

    // Off: nothing due. On again: it goes on from when it was turned on, not from what it missed.
    await onSchedule(id, { type: 'disable', scheduleId: id });
    expect(await readModel.get(id)).toMatchObject({ enabled: false, nextDueAt: null, version: 2 });
    expect(await readModel.dueBy(new Date('2100-01-01T00:00:00Z'))).toEqual([]);
    await onSchedule(id, { type: 'enable', scheduleId: id });
    const enabledAt = await recordedAt(scheduleStreamId(id), 3);
    const cursorAfterEnable = Date.parse(enabledAt) > Date.parse(secondDue) ? enabledAt : secondDue;
    expect(await readModel.get(id)).toMatchObject({ enabled: true, version: 3, cursorAt: cursorAfterEnable });

    // A new timing: the next due time is the new cron's.
    await onSchedule(id, { type: 'update', scheduleId: id, changes: { cron: '30 6 * * 1-5', timeZone: 'UTC' }, now: new Date(), minIntervalSeconds: 60 });
    const row = await readModel.get(id);
    expect(row).toMatchObject({ cron: '30 6 * * 1-5', timeZone: 'UTC', version: 4 });
    expect(row?.nextDueAt).toBe(nextDueAfter({ ...daily, cron: '30 6 * * 1-5', timeZone: 'UTC' }, new Date(row!.cursorAt))!.toISOString());
    expect(row?.nextDueAt).toMatch(/T06:30:00\.000Z$/);

    // Newest first, a page at a time.
    const page = await readModel.firings(id, 2);
    expect(page.map((r) => r.firingId)).toEqual([f3, f2, f1]);
    expect((await readModel.firings(id, 2, page[1].position)).map((r) => r.firingId)).toEqual([f1]);

    const live = await snapshot();
    await target.db.orm.update(target.db.tables.schedules).set({ nextDueAt: null, cursorAt: '1970-01-01T00:00:00.000Z' });
    await target.db.orm.delete(target.db.tables.scheduleFirings);
    await target.rebuild('schedules');
    expect(await snapshot()).toEqual(live);
  });

  it('records a skipped firing with its reason, ends a one-off after it fires, keeps the history of a deleted schedule, and lists in created order', async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const once = await create({ ...daily, cron: null, at });
    expect(await readModel.get(once)).toMatchObject({ nextDueAt: at });
    const skipped = dueFiringId(once, new Date(at));
    await onFiring(skipped, {
      type: 'skip',
      skip: {
        firingId: skipped,
        scheduleId: once,
        dueAt: at,
        trigger: 'at',
        reason: 'missed',
        message: 'due while no instance was up',
        missedCount: 1,
        instanceId: 'i2',
        skippedAt: at,
      },
    });
    expect(await readModel.firing(skipped)).toMatchObject({ status: 'skipped', reasonCode: 'missed', missedCount: 1, runId: null, attempt: 0 });
    expect(await readModel.get(once)).toMatchObject({ nextDueAt: null, lastFiringId: skipped });

    const off = await create(daily, false);
    expect(await readModel.get(off)).toMatchObject({ enabled: false, nextDueAt: null });
    const third = await create();

    const first = await readModel.list(2);
    expect(first.map((row) => row.scheduleId)).toEqual([once, off, third]);
    expect((await readModel.list(2, { createdAt: first[1].createdAt, scheduleId: first[1].scheduleId })).map((row) => row.scheduleId)).toEqual([third]);

    await onSchedule(once, { type: 'delete', scheduleId: once });
    expect(await readModel.get(once)).toBeUndefined();
    expect((await readModel.firings(once, 10)).map((row) => row.firingId)).toEqual([skipped]);

    const live = await snapshot();
    await target.rebuild('schedules');
    expect(await snapshot()).toEqual(live);
  });
});
