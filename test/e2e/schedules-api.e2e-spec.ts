import { QueryBus } from '@nestjs/cqrs';
import { firstValueFrom, take, toArray } from 'rxjs';
import { v7 as uuidv7 } from 'uuid';
import { handleCommand } from '../../src/event-store/decider';
import { EventStore } from '../../src/event-store/event-store';
import { runStreamId, scheduleFiringStreamId } from '../../src/event-store/stream-ids';
import { type FiringCommand, firingDecider } from '../../src/schedules/firing.decider';
import { dueFiringId } from '../../src/schedules/firing-id';
import { WatchScheduleFirings } from '../../src/schedules/queries/watch-schedule-firings/watch-schedule-firings.query';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import type { Json } from '../fixtures/json-http';
import { runStartedData } from '../fixtures/run-fixtures';

const TOKEN = 'schedules-api-token-0123456789';
const FUTURE = '2099-06-01T08:00:00.000Z';

/**
 * issue 30: schedules over REST on the real app (one start for the whole file): create, preview, list,
 * get with the next due times, PATCH guarded by If-Match, turning it off and on, delete, and each way
 * a request is refused: 400 for the shape, 422 for what the values mean, 404 for an unknown id.
 */
describe('schedules over REST', () => {
  let running: RunningApp;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${running.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(body === undefined && method !== 'POST' ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const nightly = { name: 'Nightly review', agentId: 'code-reviewer', prompt: 'Review the day', cron: '0 2 * * *', timeZone: 'Europe/Berlin' };

  beforeAll(async () => {
    running = await startTestApp({ apiToken: TOKEN });
    const agent = await call('POST', '/api/agents', {
      id: 'code-reviewer',
      name: 'Code reviewer',
      system_message: { mode: 'append', content: 'Review.' },
    });
    expect(agent.status).toBe(201);
  }, 60_000);

  afterAll(() => running?.close());

  it('creates, lists, reads, changes with If-Match, turns off and on, and deletes a schedule', async () => {
    const preview = await call('POST', '/api/schedules/preview', { cron: '0 2 * * *', timeZone: 'Europe/Berlin' });
    expect(preview.status).toBe(200);
    expect(preview.body.problems).toEqual([]);
    expect(preview.body.nextFirings).toHaveLength(5);
    // 02:00 in Berlin is 01:00 UTC in winter, 00:00 UTC in summer.
    for (const due of preview.body.nextFirings) expect(due).toMatch(/T0[01]:00:00\.000Z$/);

    const created = await call('POST', '/api/schedules', { ...nightly, budget: { maxRuns: 3 } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      name: 'Nightly review',
      agentId: 'code-reviewer',
      model: null,
      permissionPolicy: null,
      budget: { maxTokens: null, maxToolCalls: null, maxRuns: 3, maxDurationMs: null, maxCost: null },
      cron: '0 2 * * *',
      at: null,
      timeZone: 'Europe/Berlin',
      endsAt: null,
      enabled: true,
      overlap: 'skip',
      catchUp: 'skip',
      version: 1,
      lastFiring: null,
    });

    const one = await call('GET', `/api/schedules/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.nextFirings).toHaveLength(5);
    expect(one.body.nextFiringAt).toBe(one.body.nextFirings[0]);
    expect(one.body.nextFirings).toEqual(preview.body.nextFirings);

    const once = await call('POST', '/api/schedules', { agentId: 'code-reviewer', prompt: 'Once', at: FUTURE });
    expect(once.status).toBe(201);
    expect(once.body).toMatchObject({ name: `code-reviewer ${FUTURE}`, timeZone: 'UTC', nextFiringAt: FUTURE, nextFirings: [FUTURE] });

    const list = await call('GET', '/api/schedules?limit=1');
    expect(list.status).toBe(200);
    expect(list.body.schedules.map((s: Json) => [s.id, s.nextFirings])).toEqual([[id, []]]);
    const next = await call('GET', `/api/schedules?limit=1&after=${list.body.nextCursor}`);
    expect(next.body).toEqual({ schedules: [expect.objectContaining({ id: once.body.id, nextFiringAt: FUTURE })], nextCursor: null });

    const changed = await call('PATCH', `/api/schedules/${id}`, { prompt: 'Review the week', cron: '0 6 * * 1' }, { 'if-match': '1' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ prompt: 'Review the week', cron: '0 6 * * 1', name: 'Nightly review', budget: { maxRuns: 3 }, version: 2 });
    const stale = await call('PATCH', `/api/schedules/${id}`, { prompt: 'Lost update' }, { 'if-match': '1' });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('expected_version_conflict');
    expect((await call('GET', `/api/schedules/${id}`)).body.prompt).toBe('Review the week');

    const off = await call('PATCH', `/api/schedules/${id}`, { enabled: false }, { 'if-match': '"2"' });
    expect(off.body).toMatchObject({ enabled: false, nextFiringAt: null, nextFirings: [], version: 3 });
    const on = await call('PATCH', `/api/schedules/${id}`, { enabled: true });
    expect(on.body).toMatchObject({ enabled: true, version: 4 });
    expect(on.body.nextFirings).toHaveLength(5);
    for (const due of on.body.nextFirings) expect(new Date(due).getUTCDay()).toBe(1);

    const firings = await call('GET', `/api/schedules/${id}/firings`);
    expect(firings).toEqual({ status: 200, body: { firings: [], nextCursor: null } });

    expect((await call('DELETE', `/api/schedules/${id}`, undefined, { 'if-match': '3' })).status).toBe(409);
    const deleted = await call('DELETE', `/api/schedules/${id}`, undefined, { 'if-match': '4' });
    expect(deleted).toEqual({ status: 204, body: undefined });
    expect((await call('GET', `/api/schedules/${id}`)).body).toMatchObject({ code: 'schedule_not_found' });
    // The history of a deleted schedule is still there.
    expect((await call('GET', `/api/schedules/${id}/firings`)).status).toBe(200);
    expect((await call('GET', '/api/schedules')).body.schedules.map((s: Json) => s.id)).toEqual([once.body.id]);
  });

  it("shows a firing as the scheduler records it: live to a watcher, in the history with its run's status, as the schedule's last", async () => {
    const created = await call('POST', '/api/schedules', nightly);
    const id = created.body.id as string;
    const dueAt = created.body.nextFiringAt as string;
    const firingId = dueFiringId(id, new Date(dueAt));
    const runId = uuidv7();
    const store = running.app.get(EventStore);
    const onFiring = (command: FiringCommand) => handleCommand(store, firingDecider, scheduleFiringStreamId(firingId), command, { metadata: {} });
    const watched = firstValueFrom((await running.app.get(QueryBus).execute(new WatchScheduleFirings(id))).pipe(take(2), toArray()));

    // What the scheduler does (its own specs drive it with a clock): claim, the run starts, the claim completes.
    await onFiring({
      type: 'claim',
      claim: { firingId, scheduleId: id, dueAt, trigger: 'cron', runId, instanceId: 'i1', firedAt: dueAt, missedCount: 0 },
      now: Date.parse(dueAt),
    });
    await store.append(runStreamId(runId), 'no_stream', [
      { type: 'run.started', data: { ...runStartedData({ runId, rootRunId: runId, path: `/${runId}/`, threadId: `sub-agent-${runId}` }) }, metadata: {} },
    ]);
    await onFiring({ type: 'start', startedAt: dueAt });

    expect((await watched).map((firing) => [firing.status, firing.outcome])).toEqual([
      ['starting', 'starting'],
      ['started', 'running'],
    ]);
    const history = await call('GET', `/api/schedules/${id}/firings`);
    expect(history.body).toEqual({
      firings: [
        {
          id: firingId,
          scheduleId: id,
          dueAt,
          firedAt: dueAt,
          trigger: 'cron',
          status: 'started',
          runId,
          runStatus: 'running',
          outcome: 'running',
          attempt: 1,
          retryAt: null,
          missedCount: 0,
          reason: null,
        },
      ],
      nextCursor: null,
    });
    const schedule = (await call('GET', `/api/schedules/${id}`)).body;
    expect(schedule.lastFiring).toEqual(history.body.firings[0]);
    expect(Date.parse(schedule.nextFiringAt)).toBeGreaterThan(Date.parse(dueAt));
    expect((await call('GET', '/api/schedules?limit=500')).body.schedules.find((s: Json) => s.id === id).lastFiring).toEqual(history.body.firings[0]);
  });

  it('answers 400 for a body or header of the wrong shape, naming it', async () => {
    const unknownKey = await call('POST', '/api/schedules', { ...nightly, cronExpression: '* * * * *' });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body.message).toContain('cronExpression');
    const created = await call('POST', '/api/schedules', nightly);
    expect((await call('PATCH', `/api/schedules/${created.body.id}`, { schedule: 'daily' })).status).toBe(400);
    expect((await call('PATCH', `/api/schedules/${created.body.id}`, { enabled: 'yes' })).status).toBe(400);
    expect((await call('PATCH', `/api/schedules/${created.body.id}`, { enabled: false }, { 'if-match': 'latest' })).status).toBe(400);
    expect((await call('GET', '/api/schedules?after=not-a-cursor')).status).toBe(400);
    expect((await call('POST', '/api/schedules/preview', { cron: '* * * * *', every: 5 })).status).toBe(400);
  });

  it('answers 422 naming what to fix: a bad cron, an unknown time zone, an unknown agent, a time in the past', async () => {
    const badCron = await call('POST', '/api/schedules', { ...nightly, cron: '0 25 * * *' });
    expect(badCron.status).toBe(422);
    expect(badCron.body.code).toBe('invalid_schedule');
    expect(badCron.body.details.problems).toEqual([expect.stringMatching(/^cron "0 25 \* \* \*" is not valid/)]);

    const badZone = await call('POST', '/api/schedules', { ...nightly, timeZone: 'Europe/Atlantis', prompt: '' });
    expect(badZone.status).toBe(422);
    expect(badZone.body.details.problems).toEqual([
      expect.stringContaining('timeZone Europe/Atlantis is not an IANA time zone'),
      'prompt must not be empty',
    ]);

    const both = await call('POST', '/api/schedules', { ...nightly, at: FUTURE });
    expect(both.body.details.problems).toEqual([expect.stringContaining('give exactly one of cron')]);

    const unknownAgent = await call('POST', '/api/schedules', { ...nightly, agentId: 'code-reviewr' });
    expect(unknownAgent.status).toBe(422);
    expect(unknownAgent.body).toMatchObject({ code: 'unknown_agent', message: expect.stringContaining('Agent code-reviewr does not exist') });

    const past = await call('POST', '/api/schedules', { agentId: 'code-reviewer', prompt: 'Once', at: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(422);
    expect(past.body.details.problems).toEqual([expect.stringContaining('at is in the past')]);

    const created = await call('POST', '/api/schedules', nightly);
    const patched = await call('PATCH', `/api/schedules/${created.body.id}`, { cron: 'every night' });
    expect(patched.status).toBe(422);
    expect(patched.body.details.problems).toEqual([expect.stringContaining('cron must have 5 fields')]);
    expect((await call('PATCH', `/api/schedules/${created.body.id}`, { agentId: 'nobody' })).body.code).toBe('unknown_agent');

    // The preview answers the problems instead of refusing: the editor shows them.
    const preview = await call('POST', '/api/schedules/preview', { cron: '0 25 * * *', timeZone: 'Europe/Atlantis' });
    expect(preview.status).toBe(200);
    expect(preview.body.nextFirings).toEqual([]);
    expect(preview.body.problems).toHaveLength(2);
  });

  it('refuses a cron that can never fire or fires closer than the minimum interval, on create, PATCH and preview (issue 39)', async () => {
    const never = await call('POST', '/api/schedules', { ...nightly, cron: '0 0 30 2 *' });
    expect(never.status).toBe(422);
    expect(never.body).toMatchObject({
      code: 'invalid_schedule',
      details: { problems: [expect.stringMatching(/^cron "0 0 30 2 \*" never fires: no date matches it/)] },
    });
    // The test app keeps the default minimum: 60 s between two firings.
    const everySecond = await call('POST', '/api/schedules', { ...nightly, cron: '* * * * * *' });
    expect(everySecond.status).toBe(422);
    expect(everySecond.body.details.problems).toEqual([
      expect.stringMatching(/^cron "\* \* \* \* \* \*" fires 1 s apart .*at least 60 s apart \(SWITCHBOARD_SCHEDULE_MIN_INTERVAL, set by the operator\)/),
    ]);
    const twiceAMinute = await call('POST', '/api/schedules', { ...nightly, cron: '0,30 * * * * *' });
    expect(twiceAMinute.body.details.problems).toEqual([expect.stringContaining('fires 30 s apart')]);
    expect((await call('POST', '/api/schedules', { ...nightly, cron: '* * * * *' })).status).toBe(201);
    const endsFirst = await call('POST', '/api/schedules', { ...nightly, cron: '0 0 29 2 *', endsAt: new Date(Date.now() + 86_400_000).toISOString() });
    expect(endsFirst.status).toBe(422);
    expect(endsFirst.body.details.problems).toEqual([expect.stringContaining('is before the first firing')]);

    const created = await call('POST', '/api/schedules', nightly);
    for (const cron of ['0 0 30 2 *', '*/5 * * * * *']) {
      const patched = await call('PATCH', `/api/schedules/${created.body.id}`, { cron });
      expect(patched.status).toBe(422);
      expect(patched.body.code).toBe('invalid_schedule');
    }
    expect((await call('GET', `/api/schedules/${created.body.id}`)).body.cron).toBe(nightly.cron);

    const preview = await call('POST', '/api/schedules/preview', { cron: '0 0 30 2 *', timeZone: 'UTC' });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({ nextFirings: [], problems: [expect.stringContaining('never fires')] });
    const fast = await call('POST', '/api/schedules/preview', { cron: '* * * * * *', timeZone: 'UTC' });
    expect(fast.body).toEqual({ nextFirings: [], problems: [expect.stringContaining('SWITCHBOARD_SCHEDULE_MIN_INTERVAL')] });
  });

  it('answers 404 schedule_not_found for an id that never was', async () => {
    const id = '0192f3a4-eeee-7abc-8def-0123456789ab';
    for (const [method, path, body] of [
      ['GET', `/api/schedules/${id}`],
      ['PATCH', `/api/schedules/${id}`, { enabled: false }],
      ['DELETE', `/api/schedules/${id}`],
      ['GET', `/api/schedules/${id}/firings`],
    ] as const) {
      const answer = await call(method, path, body);
      expect([method, path, answer.status, answer.body.code]).toEqual([method, path, 404, 'schedule_not_found']);
    }
  });
});
