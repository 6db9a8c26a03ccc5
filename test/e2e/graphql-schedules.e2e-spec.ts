import type { Client } from 'graphql-ws';
import { graphqlHttp, GraphqlSubscription, graphqlWs, type GraphqlResponse } from '../fixtures/graphql-client';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

const TOKEN = 'graphql-schedules-token-0123456789';
// Due once a year at midnight on 1 January: nothing fires on its own while the spec runs.
const YEARLY = '0 0 1 1 *';
const FIRING_FIELDS = 'id scheduleId dueAt firedAt trigger status runId runStatus outcome attempt retryAt missedCount reason { code message }';
const SCHEDULE_FIELDS =
  'id name agentId prompt model budget { maxTokens maxRuns } permissionPolicy { allowKinds askKinds } cron at timeZone endsAt enabled overlap catchUp version nextFiringAt nextFirings';

interface FiringEvent {
  scheduleFirings: { id: string; status: string; runId: string | null };
}

/** The first error's code, status and problems: what a client reads to tell the person what to fix. */
function refusal(response: GraphqlResponse) {
  const error = response.body.errors?.[0];
  return { code: error?.extensions?.code, statusCode: error?.extensions?.statusCode, problems: error?.extensions?.details?.problems as unknown };
}

/**
 * issue 30 over GraphQL on the real app, the real Copilot CLI and the scripted model: create (and its
 * refusals), list, preview, update with expectedVersion, enable / disable, run now with its firing live
 * on the subscription and its run completed, delete.
 */
describe('GraphQL schedules', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  let client: Client;
  const gql = graphqlHttp(() => running.app.baseUrl, TOKEN);

  beforeAll(async () => {
    await model.start();
    model.setScript([{ name: 'nightly answers', systemIncludes: 'NIGHTLY_P', answer: { text: 'NIGHTLY_REPORT' } }]);
    running = await startRealCliApp(model, { apiToken: TOKEN });
    client = graphqlWs(running.app.baseUrl, TOKEN);
    const created = await gql('mutation ($input: CreateAgentInput!) { createAgent(input: $input) { id } }', {
      input: { id: 'nightly', name: 'Nightly', systemMessage: { mode: 'append', content: 'NIGHTLY_P you review changes.' } },
    });
    expect(created.body.errors).toBeUndefined();
  }, 60_000);

  afterAll(async () => {
    await client?.dispose();
    await running?.close();
    await model.stop();
  });

  const create = (input: Record<string, unknown>) =>
    gql(`mutation ($input: ScheduleInput!) { createSchedule(input: $input) { ${SCHEDULE_FIELDS} } }`, { input });

  it('previews a timing: the next five due times in its zone, or its problems without an error', async () => {
    const preview = await gql('query { schedulePreview(cron: "0 9 * * 1-5", timeZone: "Europe/Berlin") { nextFirings problems } }');
    expect(preview.body.errors).toBeUndefined();
    const { nextFirings, problems } = preview.body.data.schedulePreview;
    expect(problems).toEqual([]);
    expect(nextFirings).toHaveLength(5);
    for (const due of nextFirings as string[]) {
      const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', weekday: 'short' }).format(
        new Date(due),
      );
      expect(local).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 09:00$/);
      expect(Date.parse(due)).toBeGreaterThan(Date.now());
    }

    const bad = await gql('query { schedulePreview(cron: "61 * * * *", timeZone: "Mars/Olympus") { nextFirings problems } }');
    expect(bad.body.errors).toBeUndefined();
    expect(bad.body.data.schedulePreview.nextFirings).toEqual([]);
    expect(bad.body.data.schedulePreview.problems).toEqual([
      expect.stringContaining('Mars/Olympus is not an IANA time zone'),
      expect.stringContaining('cron "61 * * * *" is not valid'),
    ]);
  });

  it('refuses a bad schedule with a code and every problem, never an internal error', async () => {
    const invalid = await create({ agentId: 'nightly', prompt: '  ', cron: 'every day', timeZone: 'Nowhere/Land' });
    expect(refusal(invalid)).toEqual({
      code: 'invalid_schedule',
      statusCode: 422,
      problems: expect.arrayContaining([expect.stringContaining('cron must have 5 fields'), expect.stringContaining('Nowhere/Land')]),
    });
    expect((refusal(invalid).problems as string[]).some((p) => /prompt/.test(p))).toBe(true);

    const both = await create({ agentId: 'nightly', prompt: 'Review.', cron: YEARLY, at: '2030-01-01T00:00:00Z' });
    expect(refusal(both)).toMatchObject({ code: 'invalid_schedule', problems: [expect.stringContaining('exactly one of cron')] });

    const past = await create({ agentId: 'nightly', prompt: 'Review.', at: '2020-01-01T00:00:00Z' });
    expect(refusal(past)).toMatchObject({ code: 'invalid_schedule', problems: [expect.stringContaining('at is in the past')] });

    const unknownAgent = await create({ agentId: 'nobody', prompt: 'Review.', cron: YEARLY });
    expect(refusal(unknownAgent)).toMatchObject({ code: 'unknown_agent', statusCode: 422 });

    const badPolicy = await create({ agentId: 'nightly', prompt: 'Review.', cron: YEARLY, overlap: 'sometimes' });
    expect(refusal(badPolicy)).toMatchObject({ code: 'invalid_input', statusCode: 400, problems: [expect.stringContaining('overlap')] });

    const badSize = await gql('query { schedules(first: 0) { nodes { id } } }');
    expect(refusal(badSize)).toMatchObject({ code: 'invalid_input' });

    for (const response of [invalid, both, past, unknownAgent, badPolicy, badSize]) {
      expect(response.body.errors?.[0]?.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
    }
    // None of them was kept.
    expect((await gql('query { schedules { nodes { id } } }')).body.data.schedules.nodes).toEqual([]);
  });

  it('creates, lists, reads, updates with expectedVersion and turns a schedule on and off', async () => {
    const created = await create({
      agentId: 'nightly',
      prompt: 'Review the changes of the night.',
      cron: YEARLY,
      timeZone: 'Europe/Berlin',
      budget: { maxTokens: 50_000, maxRuns: 3 },
    });
    expect(created.body.errors).toBeUndefined();
    const schedule = created.body.data.createSchedule;
    expect(schedule).toMatchObject({
      name: `nightly ${YEARLY}`,
      agentId: 'nightly',
      model: null,
      budget: { maxTokens: 50_000, maxRuns: 3 },
      permissionPolicy: null,
      cron: YEARLY,
      at: null,
      timeZone: 'Europe/Berlin',
      endsAt: null,
      enabled: true,
      overlap: 'skip',
      catchUp: 'skip',
      version: 1,
    });
    // Midnight of 1 January in Berlin is 23:00 UTC the day before.
    expect(schedule.nextFiringAt).toMatch(/-12-31T23:00:00(\.000)?Z$/);

    const one = (await gql(`query ($id: ID!) { schedule(id: $id) { ${SCHEDULE_FIELDS} lastFiring { id } } }`, { id: schedule.id })).body.data.schedule;
    expect(one.nextFirings).toHaveLength(5);
    expect(one.nextFirings[0]).toBe(one.nextFiringAt);
    expect(one.lastFiring).toBeNull();
    const listed = (await gql('query { schedules(first: 10) { nodes { id name nextFiringAt nextFirings } pageInfo { hasNextPage } } }')).body.data
      .schedules;
    expect(listed).toEqual({
      nodes: [{ id: schedule.id, name: schedule.name, nextFiringAt: schedule.nextFiringAt, nextFirings: [] }],
      pageInfo: { hasNextPage: false },
    });

    const update = (expectedVersion: number, input: Record<string, unknown>) =>
      gql(
        `mutation ($id: ID!, $v: Int, $input: ScheduleChangesInput!) { updateSchedule(id: $id, expectedVersion: $v, input: $input) { ${SCHEDULE_FIELDS} } }`,
        {
          id: schedule.id,
          v: expectedVersion,
          input,
        },
      );
    const renamed = await update(1, { name: 'Nightly review', model: 'gpt-4.1', budget: null });
    expect(renamed.body.errors).toBeUndefined();
    expect(renamed.body.data.updateSchedule).toMatchObject({ name: 'Nightly review', model: 'gpt-4.1', budget: null, cron: YEARLY, version: 2 });
    // Written against the version before: refused, nothing overwritten.
    const stale = await update(1, { prompt: 'Something else.' });
    expect(refusal(stale)).toMatchObject({ code: 'expected_version_conflict', statusCode: 409 });

    const toggle = (enabled: boolean, v?: number) =>
      gql(
        'mutation ($id: ID!, $on: Boolean!, $v: Int) { setScheduleEnabled(id: $id, enabled: $on, expectedVersion: $v) { enabled version nextFiringAt } }',
        {
          id: schedule.id,
          on: enabled,
          v,
        },
      );
    expect((await toggle(false, 2)).body.data.setScheduleEnabled).toEqual({ enabled: false, version: 3, nextFiringAt: null });
    // Already off: nothing recorded.
    expect((await toggle(false)).body.data.setScheduleEnabled).toEqual({ enabled: false, version: 3, nextFiringAt: null });
    const on = (await toggle(true, 3)).body.data.setScheduleEnabled;
    expect(on).toEqual({ enabled: true, version: 4, nextFiringAt: schedule.nextFiringAt });

    // Pages by cursor: the next page starts after the first one's end.
    const second = (await create({ agentId: 'nightly', prompt: 'Second.', cron: YEARLY })).body.data.createSchedule;
    const page1 = (await gql('query { schedules(first: 1) { nodes { id } pageInfo { hasNextPage endCursor } } }')).body.data.schedules;
    expect(page1.nodes).toEqual([{ id: schedule.id }]);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (
      await gql('query ($after: String) { schedules(first: 1, after: $after) { nodes { id } pageInfo { hasNextPage } } }', {
        after: page1.pageInfo.endCursor,
      })
    ).body.data.schedules;
    expect(page2).toEqual({ nodes: [{ id: second.id }], pageInfo: { hasNextPage: false } });
    expect(refusal(await gql('query { schedules(after: "not-a-cursor") { nodes { id } } }'))).toMatchObject({ code: 'invalid_input', statusCode: 400 });
    await gql('mutation ($id: ID!) { deleteSchedule(id: $id) { id } }', { id: second.id });

    const cleared = await update(4, { cron: null, at: '2099-06-01T10:00:00Z' });
    expect(cleared.body.data.updateSchedule).toMatchObject({
      cron: null,
      at: '2099-06-01T10:00:00Z',
      nextFiringAt: expect.stringMatching(/^2099-06-01T10:00/),
    });
  });

  it('runs a schedule now: the firing arrives on the subscription, its run completes and is linked, and delete keeps the history', async () => {
    const schedule = (await create({ name: 'Ad hoc', agentId: 'nightly', prompt: 'Report now.', cron: YEARLY, enabled: false })).body.data.createSchedule;
    const firings = new GraphqlSubscription<FiringEvent>(client, 'subscription ($id: ID) { scheduleFirings(scheduleId: $id) { id status runId } }', {
      id: schedule.id,
    }).start();
    const others = new GraphqlSubscription<FiringEvent>(
      client,
      'subscription { scheduleFirings(scheduleId: "00000000-0000-7000-8000-000000000000") { id } }',
    ).start();
    // The subscriptions are open once the socket answered an operation sent after them.
    await gql('query { schedulePreview(cron: "* * * * *") { problems } }');
    await new Promise((resolve) => setTimeout(resolve, 200));

    const fired = await gql(`mutation ($id: ID!) { runScheduleNow(id: $id) { ${FIRING_FIELDS} } }`, { id: schedule.id });
    expect(fired.body.errors).toBeUndefined();
    const firing = fired.body.data.runScheduleNow;
    // Run now ignores enabled: a disabled schedule runs too.
    expect(firing).toMatchObject({ scheduleId: schedule.id, trigger: 'manual', attempt: 1, missedCount: 0, reason: null, runId: expect.any(String) });
    const seen = await firings.waitFor(
      (v) => v.some((e) => e.scheduleFirings.id === firing.id && e.scheduleFirings.status === 'started'),
      'the firing started',
      30_000,
    );
    expect(seen.every((e) => e.scheduleFirings.id === firing.id && e.scheduleFirings.runId === firing.runId)).toBe(true);

    const history = (id: string) =>
      gql(
        `query ($id: ID!) { schedule(id: $id) { lastFiring { id outcome } firings(first: 10) { nodes { ${FIRING_FIELDS} run { runId status output agentId prompt } } pageInfo { hasNextPage } } } }`,
        {
          id,
        },
      );
    const done = await waitUntil(
      async () => {
        const page = (await history(schedule.id)).body.data.schedule;
        // lastFiring is read before firings: once it says completed, the run read after it does too.
        return page.lastFiring?.outcome === 'completed' ? page : undefined;
      },
      'the firing run to complete',
      60_000,
    );
    expect(done.lastFiring).toEqual({ id: firing.id, outcome: 'completed' });
    expect(done.firings.pageInfo.hasNextPage).toBe(false);
    expect(done.firings.nodes).toEqual([
      expect.objectContaining({
        id: firing.id,
        status: 'started',
        runStatus: 'completed',
        outcome: 'completed',
        run: { runId: firing.runId, status: 'completed', output: 'NIGHTLY_REPORT', agentId: 'nightly', prompt: 'Report now.' },
      }),
    ]);
    expect(others.values).toEqual([]);
    const scheduledBy = 'query ($id: ID!) { run(id: $id) { scheduledBy { scheduleId firingId schedule { name } } } }';
    expect((await gql(scheduledBy, { id: firing.runId })).body.data.run.scheduledBy).toEqual({
      scheduleId: schedule.id,
      firingId: firing.id,
      schedule: { name: 'Ad hoc' },
    });
    firings.stop();
    others.stop();

    const deleted = await gql('mutation ($id: ID!, $v: Int) { deleteSchedule(id: $id, expectedVersion: $v) { id deleted } }', {
      id: schedule.id,
      v: schedule.version,
    });
    expect(deleted.body.data.deleteSchedule).toEqual({ id: schedule.id, deleted: true });
    expect((await gql('query ($id: ID!) { schedule(id: $id) { id } }', { id: schedule.id })).body.data.schedule).toBeNull();
    for (const mutation of ['runScheduleNow(id: $id) { id }', 'setScheduleEnabled(id: $id, enabled: true) { id }', 'deleteSchedule(id: $id) { id }']) {
      const refused = await gql(`mutation ($id: ID!) { ${mutation} }`, { id: schedule.id });
      expect(refusal(refused)).toMatchObject({ code: 'schedule_not_found', statusCode: 404 });
    }
    // The run it started is still there, and says a schedule (now gone) started it.
    expect((await gql(scheduledBy, { id: firing.runId })).body.data.run.scheduledBy).toEqual({
      scheduleId: schedule.id,
      firingId: firing.id,
      schedule: null,
    });
  }, 120_000);
});
