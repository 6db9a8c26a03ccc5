import { deciderSpec } from '../../test/fixtures/decider-spec';
import { scheduleDecider } from './schedule.decider';
import { InvalidScheduleError, ScheduleExistsError, ScheduleNotFoundError } from './schedule.errors';
import { type ScheduleDefinition, type ScheduleEvent, ScheduleEvents } from './schedule.events';

const given = deciderSpec(scheduleDecider);
const NOW = new Date('2026-11-27T10:00:00.000Z');
/** SWITCHBOARD_SCHEDULE_MIN_INTERVAL's default. */
const MIN = 60;
const id = 's1';
const definition: ScheduleDefinition = {
  name: 'Nightly review',
  agentId: 'code-reviewer',
  prompt: 'Review the day',
  model: null,
  permissionPolicy: null,
  budget: { max_runs: 5 },
  cron: '0 2 * * *',
  at: null,
  timeZone: 'Europe/Berlin',
  endsAt: null,
  overlap: 'skip',
  catchUp: 'skip',
};
const created: ScheduleEvent = { type: ScheduleEvents.created, data: { scheduleId: id, definition, enabled: true } };
const disabled: ScheduleEvent = { type: ScheduleEvents.disabled, data: { scheduleId: id } };
const enabled: ScheduleEvent = { type: ScheduleEvents.enabled, data: { scheduleId: id } };
const deleted: ScheduleEvent = { type: ScheduleEvents.deleted, data: { scheduleId: id } };
/** The create command for s1 at NOW, enabled, with the default minimum interval unless a case sets one. */
const create = (definition: ScheduleDefinition, minIntervalSeconds = MIN) =>
  ({ type: 'create', scheduleId: id, definition, enabled: true, now: NOW, minIntervalSeconds }) as const;

describe('scheduleDecider', () => {
  it('creates a schedule once, with its definition and whether it is on', () => {
    given().when(create(definition)).then([created]);
    given(created)
      .when(create(definition))
      .thenThrows(ScheduleExistsError, /Schedule s1 already exists/);
  });

  it('refuses a definition that cannot fire, naming every problem at once (422 invalid_schedule)', () => {
    const broken = { ...definition, cron: '61 * * * *', timeZone: 'Mars/Olympus', prompt: '  ', name: '' };
    given()
      .when(create(broken))
      .thenThrows(
        InvalidScheduleError,
        /timeZone Mars\/Olympus is not an IANA time zone.*cron "61 \* \* \* \*" is not valid.*name must be 1 to 120.*prompt must not be empty/,
      );
  });

  it('refuses a one-off time or an end that is not ahead of now', () => {
    const once = { ...definition, cron: null, at: '2026-11-27T09:59:59Z' };
    given()
      .when(create(once))
      .thenThrows(InvalidScheduleError, /at is in the past/);
    given()
      .when(create({ ...definition, endsAt: '2026-11-01T00:00:00Z' }))
      .thenThrows(InvalidScheduleError, /endsAt is in the past/);
    given()
      .when(create({ ...definition, at: '2026-12-01T00:00:00Z' }))
      .thenThrows(InvalidScheduleError, /give exactly one of cron .* or at/);
  });

  it('replaces the whole definition with the fields a PATCH gives; the same fields again record nothing', () => {
    given(created)
      .when({
        type: 'update',
        scheduleId: id,
        changes: { prompt: 'Review the week', cron: null, at: '2026-12-01T08:00:00Z' },
        now: NOW,
        minIntervalSeconds: MIN,
      })
      .then([
        {
          type: ScheduleEvents.updated,
          data: { scheduleId: id, definition: { ...definition, prompt: 'Review the week', cron: null, at: '2026-12-01T08:00:00Z' } },
        },
      ]);
    given(created)
      .when({ type: 'update', scheduleId: id, changes: { prompt: 'Review the day' }, now: NOW, minIntervalSeconds: MIN })
      .then([]);
  });

  it('checks a PATCH against the definition it makes, but only the times it changes against now', () => {
    given(created)
      .when({ type: 'update', scheduleId: id, changes: { cron: 'every day' }, now: NOW, minIntervalSeconds: MIN })
      .thenThrows(InvalidScheduleError, /cron must have 5 fields/);
    const ended: ScheduleEvent = {
      type: ScheduleEvents.updated,
      data: { scheduleId: id, definition: { ...definition, endsAt: '2026-11-20T00:00:00.000Z' } },
    };
    // Its end has passed since: renaming it is still allowed.
    given(created, ended)
      .when({ type: 'update', scheduleId: id, changes: { name: 'Old review' }, now: NOW, minIntervalSeconds: MIN })
      .then([
        { type: ScheduleEvents.updated, data: { scheduleId: id, definition: { ...definition, endsAt: '2026-11-20T00:00:00.000Z', name: 'Old review' } } },
      ]);
  });

  it('refuses a cron that never fires, or fires closer than the minimum interval, naming it (issue 39)', () => {
    given()
      .when(create({ ...definition, cron: '0 0 30 2 *' }))
      .thenThrows(InvalidScheduleError, /cron "0 0 30 2 \*" never fires: no date matches it/);
    given()
      .when(create({ ...definition, cron: '* * * * * *' }))
      .thenThrows(InvalidScheduleError, /cron "\* \* \* \* \* \*" fires 1 s apart .*at least 60 s apart \(SWITCHBOARD_SCHEDULE_MIN_INTERVAL/);
    // The operator's lower minimum lets it through.
    given()
      .when(create({ ...definition, cron: '* * * * * *' }, 1))
      .then([{ type: ScheduleEvents.created, data: { scheduleId: id, definition: { ...definition, cron: '* * * * * *' }, enabled: true } }]);
    // A PATCH is checked when it changes the cron; a schedule made under a lower minimum can still be renamed.
    given(created)
      .when({ type: 'update', scheduleId: id, changes: { cron: '0 0 31 4 *' }, now: NOW, minIntervalSeconds: MIN })
      .thenThrows(InvalidScheduleError, /never fires/);
    const everySecond: ScheduleEvent = { type: ScheduleEvents.updated, data: { scheduleId: id, definition: { ...definition, cron: '* * * * * *' } } };
    given(created, everySecond)
      .when({ type: 'update', scheduleId: id, changes: { name: 'Fast' }, now: NOW, minIntervalSeconds: MIN })
      .then([{ type: ScheduleEvents.updated, data: { scheduleId: id, definition: { ...definition, cron: '* * * * * *', name: 'Fast' } } }]);
  });

  it('turns a schedule on and off, with no event when it already is so', () => {
    given(created).when({ type: 'disable', scheduleId: id }).then([disabled]);
    given(created).when({ type: 'enable', scheduleId: id }).then([]);
    given(created, disabled).when({ type: 'disable', scheduleId: id }).then([]);
    given(created, disabled).when({ type: 'enable', scheduleId: id }).then([enabled]);
    given(created)
      .when({ type: 'update', scheduleId: id, changes: { enabled: false }, now: NOW, minIntervalSeconds: MIN })
      .then([disabled]);
    given(created)
      .when({ type: 'update', scheduleId: id, changes: { enabled: false, name: 'Paused review' }, now: NOW, minIntervalSeconds: MIN })
      .then([{ type: ScheduleEvents.updated, data: { scheduleId: id, definition: { ...definition, name: 'Paused review' } } }, disabled]);
  });

  it('deletes a schedule, after which it is not found (404) for every command', () => {
    given(created).when({ type: 'delete', scheduleId: id }).then([deleted]);
    for (const command of [
      { type: 'delete', scheduleId: id },
      { type: 'enable', scheduleId: id },
      { type: 'update', scheduleId: id, changes: { name: 'x' }, now: NOW, minIntervalSeconds: MIN },
    ] as const) {
      given(created, deleted)
        .when(command)
        .thenThrows(ScheduleNotFoundError, /Schedule s1 does not exist/);
    }
    given()
      .when({ type: 'disable', scheduleId: id })
      .thenThrows(ScheduleNotFoundError, /Schedule s1 does not exist/);
    given(created, deleted)
      .when(create(definition))
      .thenThrows(ScheduleExistsError, /already exists/);
  });
});
