import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { request } from '../api/client';
import { usePolling } from '../api/hooks';
import { useMay } from '../api/me';
import type { ScheduleQuery as ScheduleResult } from '../gql/graphql';
import { ErrorNote } from '../ui/ErrorNote';
import { Icon } from '../ui/icons';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { FiringOutcome } from './FiringOutcome';
import { scheduleKeys, useDeleteSchedule, useRunScheduleNow, useSetScheduleEnabled } from './mutations';
import { ScheduleQuery } from './operations';
import { dueTimeText, firingUnderway, timingText, triggerText } from './schedule-draft';
import { useScheduleFiringsLive } from './use-schedule-firings-live';
import { ColumnHeads } from '../ui/ColumnHeads';

/** How often the page asks again while a firing's run runs (its end reaches no firing subscription). */
const RUN_POLL_MS = 3000;

/** The newest firings the page lists (the history's first page). */
export const FIRINGS_SHOWN = 50;

type ScheduleDetail = NonNullable<ScheduleResult['schedule']>;

/** The time of day in the schedule's zone (the due time beside it names the zone and the day). */
function clockTime(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleTimeString('en-GB', { timeZone });
}

/** What a firing's run may do, in words. */
function policyText(policy: ScheduleDetail['permissionPolicy']): string {
  if (!policy) return 'the service default (every kind denied)';
  const parts = [
    policy.allowKinds.length > 0 && `allowed ${policy.allowKinds.join(', ')}`,
    policy.askKinds.length > 0 && `a person asked for ${policy.askKinds.join(', ')}`,
    policy.askTools.length > 0 && `a person asked before ${policy.askTools.join(', ')}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : 'every kind denied';
}

function budgetText(budget: ScheduleDetail['budget']): string | undefined {
  if (!budget) return undefined;
  const parts = [
    budget.maxRuns !== null && budget.maxRuns !== undefined && `${budget.maxRuns} runs`,
    budget.maxTokens !== null && budget.maxTokens !== undefined && `${budget.maxTokens} tokens`,
    budget.maxToolCalls !== null && budget.maxToolCalls !== undefined && `${budget.maxToolCalls} tool calls`,
    budget.maxDurationMs !== null && budget.maxDurationMs !== undefined && `${budget.maxDurationMs / 1000} s`,
    budget.maxCost !== null && budget.maxCost !== undefined && `cost ${budget.maxCost}`,
  ].filter((part): part is string => typeof part === 'string');
  return parts.length > 0 ? `at most ${parts.join(', ')}` : undefined;
}

/**
 * One schedule: what it runs and when, its next firings, and its firing history (due, fired, trigger,
 * outcome, reason), each run a link to its page, live through the scheduleFirings subscription. Run
 * now, Edit, on/off and Delete for operators.
 */
export function ScheduleDetailPage({ scheduleId }: { scheduleId: string }) {
  const mayOperate = useMay('operate');
  const navigate = useNavigate();
  const detail = useQuery({
    queryKey: scheduleKeys.one(scheduleId),
    queryFn: () => request(ScheduleQuery, { id: scheduleId, firings: FIRINGS_SHOWN }),
  });
  useScheduleFiringsLive(scheduleId, () => void detail.refetch());
  const schedule = detail.data?.schedule;
  // A run's end is no firing event: while one of the shown firings' runs is under way, ask again now and then.
  const underway = (schedule?.firings.nodes ?? []).some((f) => firingUnderway(f.outcome));
  usePolling(() => underway && void detail.refetch(), RUN_POLL_MS);
  const runNow = useRunScheduleNow();
  const toggle = useSetScheduleEnabled();
  const remove = useDeleteSchedule();
  const [confirmingDelete, setConfirmingDelete] = useState(false);

  if (detail.data && !schedule) {
    return (
      <section className="page" aria-labelledby="schedule-title">
        <h1 id="schedule-title">Schedule not found</h1>
        <p>
          No schedule has the id <code>{scheduleId}</code> (it may have been deleted). <Link to="/schedules">Back to the schedules</Link>.
        </p>
      </section>
    );
  }

  const firings = schedule?.firings.nodes ?? [];
  const fired = runNow.data?.runScheduleNow;
  const budget = schedule ? budgetText(schedule.budget) : undefined;
  return (
    <section className="page schedule-page" aria-labelledby="schedule-title">
      <p className="breadcrumb">
        <Link to="/schedules">Schedules</Link>
      </p>
      <div className="page-head">
        <div>
          <h1 id="schedule-title">{schedule?.name ?? 'Schedule'}</h1>
          {schedule && (
            <p className="run-facts">
              <span className={`badge ${schedule.enabled ? 'status-live' : 'status-over'}`}>{schedule.enabled ? 'enabled' : 'disabled'}</span>
              <span>
                <Icon name="agent" /> <Link to={`/agents/${schedule.agentId}`}>{schedule.agentId}</Link>
              </span>
              <span>{timingText(schedule)}</span>
              {schedule.endsAt && <span>until {dueTimeText(schedule.endsAt, schedule.timeZone)}</span>}
            </p>
          )}
        </div>
        {mayOperate && schedule && (
          <div className="page-actions">
            <button type="button" className="primary" disabled={runNow.isPending} onClick={() => runNow.mutate({ id: scheduleId })}>
              <Icon name="run" />
              {runNow.isPending ? 'Starting…' : 'Run now'}
            </button>
            <Link className="button" to={`/schedules/${scheduleId}/edit`}>
              Edit
            </Link>
            <button
              type="button"
              disabled={toggle.isPending}
              onClick={() => toggle.mutate({ id: schedule.id, enabled: !schedule.enabled, expectedVersion: schedule.version })}
            >
              {schedule.enabled ? 'Disable' : 'Enable'}
            </button>
            <button type="button" className="danger" onClick={() => setConfirmingDelete(true)}>
              Delete
            </button>
          </div>
        )}
      </div>
      <ErrorNote error={detail.error} title="The schedule could not be loaded" />
      <ErrorNote error={runNow.error} title="Run now was refused" />
      <ErrorNote error={toggle.error} title="The schedule was not changed" />
      <ErrorNote error={remove.error} title="The schedule was not deleted" />
      {fired && (
        <p role="status" className="small">
          {fired.runId && fired.status !== 'failed' ? (
            <>
              Fired now: run <Link to={`/runs/${fired.runId}`}>{fired.runId}</Link>, followed in the history below.
            </>
          ) : (
            `Fired now, but the run did not start${fired.reason ? `: ${fired.reason.message}` : ''}.`
          )}
        </p>
      )}

      {schedule && (
        <div className="schedule-summary">
          <section className="aside-card" aria-labelledby="schedule-what">
            <h2 id="schedule-what">What runs</h2>
            <p className="schedule-prompt">{schedule.prompt}</p>
            <ul className="reasons">
              <li>Model: {schedule.model ?? "the agent's"}</li>
              <li>Budget: {budget ?? 'none'}</li>
              <li>Permissions: {policyText(schedule.permissionPolicy)}</li>
              {schedule.workspace && (
                <li>
                  Workspace: <code>{schedule.workspace.repository}</code>
                  {schedule.workspace.ref ? ` from ${schedule.workspace.ref}` : ''}
                  {schedule.workspace.merge === 'manual' ? ', merged when a person merges' : ''}
                </li>
              )}
              <li>If the last firing still runs: {schedule.overlap === 'allow' ? 'start another run anyway' : 'skip'}</li>
              <li>After downtime: {schedule.catchUp === 'last' ? 'run the last missed firing once' : 'skip the missed firings'}</li>
            </ul>
          </section>
          <section className="aside-card" aria-labelledby="schedule-next">
            <h2 id="schedule-next">Next firings</h2>
            {schedule.nextFirings.length > 0 ? (
              <ol className="next-firings" aria-labelledby="schedule-next">
                {schedule.nextFirings.map((due) => (
                  <li key={due}>
                    <time dateTime={due}>{dueTimeText(due, schedule.timeZone)}</time>
                  </li>
                ))}
              </ol>
            ) : (
              <p className="muted">{schedule.enabled ? 'Nothing more is due.' : 'None while it is disabled.'}</p>
            )}
          </section>
        </div>
      )}

      <h2 id="firings-title">Firings</h2>
      {schedule && firings.length === 0 ? (
        <p className="muted">It has not fired yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table firing-table" aria-labelledby="firings-title">
            <ColumnHeads names={['Due', 'Fired', 'Trigger', 'Outcome', 'Run', 'Reason']} />
            <tbody>
              {firings.map((f) => (
                <tr key={f.id} data-firing={f.id}>
                  <td>
                    <time dateTime={f.dueAt}>{dueTimeText(f.dueAt, schedule?.timeZone ?? 'UTC')}</time>
                  </td>
                  <td>
                    {f.firedAt ? <time dateTime={f.firedAt}>{clockTime(f.firedAt, schedule?.timeZone ?? 'UTC')}</time> : <span className="muted">—</span>}
                  </td>
                  <td>{triggerText(f.trigger)}</td>
                  <td>
                    <FiringOutcome firing={f} />
                  </td>
                  <td>
                    {f.runId && f.status === 'started' ? (
                      <Link to={`/runs/${f.runId}`} aria-label={`Open run of the firing due ${dueTimeText(f.dueAt, schedule?.timeZone ?? 'UTC')}`}>
                        Open run
                      </Link>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td className="small">
                    {f.reason ? f.reason.message : ''}
                    {f.attempt > 1 && ` (attempt ${f.attempt})`}
                    {f.retryAt && ` Tries again at ${clockTime(f.retryAt, schedule?.timeZone ?? 'UTC')}.`}
                    {f.missedCount > 0 && ` ${f.missedCount} missed firing${f.missedCount === 1 ? '' : 's'} during downtime.`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {schedule?.firings.pageInfo.hasNextPage && <p className="muted small">The newest {FIRINGS_SHOWN} firings; older ones are in the API.</p>}

      {confirmingDelete && schedule && (
        <ConfirmDeleteSchedule
          name={schedule.name}
          onCancel={() => setConfirmingDelete(false)}
          onConfirm={() => {
            setConfirmingDelete(false);
            remove.mutate({ id: schedule.id, expectedVersion: schedule.version }, { onSuccess: () => void navigate('/schedules') });
          }}
        />
      )}
    </section>
  );
}

function ConfirmDeleteSchedule({ name, onCancel, onConfirm }: { name: string; onCancel: () => void; onConfirm: () => void }) {
  return (
    <ConfirmDialog
      titleId="delete-schedule-title"
      title={`Delete the schedule “${name}”?`}
      confirmLabel="Delete"
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p>Nothing fires from it any more. Its firings and their runs stay in the history.</p>
    </ConfirmDialog>
  );
}
