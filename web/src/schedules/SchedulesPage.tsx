import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { request } from '../api/client';
import { usePolling } from '../api/hooks';
import { useMay } from '../api/me';
import { ErrorNote } from '../ui/ErrorNote';
import { Pager, useCursorPages } from '../ui/Pager';
import { PageHead } from '../ui/PageHead';
import { Icon } from '../ui/icons';
import { scheduleKeys, useSetScheduleEnabled } from './mutations';
import { SchedulesQuery } from './operations';
import { FiringOutcome } from './FiringOutcome';
import { dueTimeText, firingUnderway, timingText } from './schedule-draft';
import { useScheduleFiringsLive } from './use-schedule-firings-live';
import { ColumnHeads } from '../ui/ColumnHeads';

export const SCHEDULES_PAGE_SIZE = 50;
const POLL_MS = 3000;

/**
 * Every schedule with when it fires next and how its last firing went; follows the firings live (a
 * firing moves "next" on and changes "last"), and turns a schedule on or off in place (operate).
 */
export function SchedulesPage() {
  const mayOperate = useMay('operate');
  const pages = useCursorPages();
  const { after } = pages;
  const list = useQuery({
    queryKey: [...scheduleKeys.list, after],
    queryFn: () => request(SchedulesQuery, { first: SCHEDULES_PAGE_SIZE, after }),
    placeholderData: keepPreviousData,
  });
  useScheduleFiringsLive(undefined, () => void list.refetch());
  // A run's end reaches no firing subscription: while a last firing's run is under way, ask again now and then.
  const underway = (list.data?.schedules.nodes ?? []).some((s) => s.lastFiring && firingUnderway(s.lastFiring.outcome));
  usePolling(() => underway && void list.refetch(), POLL_MS);
  const agents = useMemo(() => new Map((list.data?.agents ?? []).map((a) => [a.id, a.name])), [list.data]);
  const toggle = useSetScheduleEnabled();
  const rows = list.data?.schedules.nodes ?? [];
  const pageInfo = list.data?.schedules.pageInfo;

  return (
    <section className="page" aria-labelledby="schedules-title">
      <PageHead
        titleId="schedules-title"
        title="Schedules"
        actions={
          mayOperate && (
            <Link className="button primary" to="/schedules/new">
              <Icon name="schedule" />
              New schedule
            </Link>
          )
        }
      >
        Agents that run on a cron schedule or at one time, each firing recorded with its run. On several instances each due firing starts one run.
      </PageHead>
      <ErrorNote error={list.error} title="The schedules could not be loaded" />
      <ErrorNote error={toggle.error} title="The schedule was not changed" />
      {list.data && rows.length === 0 && pages.pageNumber === 1 ? (
        <div className="empty">
          <h2>No schedules</h2>
          <p className="muted">
            {mayOperate ? 'Make one here, or with “Schedule…” on an agent’s card in the library.' : 'Nobody has scheduled an agent yet.'}
          </p>
        </div>
      ) : (
        <div className="table-scroll">
          <table className="data-table schedule-table">
            <caption className="visually-hidden">Schedules, oldest first</caption>
            <ColumnHeads names={['Name', 'Agent', 'When', 'Enabled', 'Next firing', 'Last outcome']} />
            <tbody>
              {rows.map((s) => (
                <tr key={s.id} data-schedule={s.id}>
                  <th scope="row">
                    <Link to={`/schedules/${s.id}`}>{s.name}</Link>
                  </th>
                  <td>{agents.get(s.agentId) ?? s.agentId}</td>
                  <td className="schedule-timing">{timingText(s)}</td>
                  <td>
                    {mayOperate ? (
                      <label className="switch-line">
                        <input
                          type="checkbox"
                          role="switch"
                          checked={s.enabled}
                          disabled={toggle.isPending}
                          aria-label={`${s.name} enabled`}
                          onChange={() => toggle.mutate({ id: s.id, enabled: !s.enabled, expectedVersion: s.version })}
                        />
                        <span aria-hidden="true">{s.enabled ? 'on' : 'off'}</span>
                      </label>
                    ) : (
                      <span>{s.enabled ? 'on' : 'off'}</span>
                    )}
                  </td>
                  <td>{s.nextFiringAt ? dueTimeText(s.nextFiringAt, s.timeZone) : <span className="muted">{s.enabled ? 'none due' : 'off'}</span>}</td>
                  <td>{s.lastFiring ? <FiringOutcome firing={s.lastFiring} /> : <span className="muted">not fired yet</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(pages.pageNumber > 1 || pageInfo?.hasNextPage) && <Pager label="Schedule pages" pages={pages} pageInfo={pageInfo} fetching={list.isFetching} />}
    </section>
  );
}
