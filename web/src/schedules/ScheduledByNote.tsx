import { Link } from 'react-router';

/**
 * On a run's page: "Started by schedule <name>", a link back to it, when a schedule's firing started the
 * run, or (`team`) the root run of the tree this run belongs to.
 */
export function ScheduledByNote({ scheduleId, name, team = false }: { scheduleId: string; name: string | undefined; team?: boolean }) {
  const what = team ? 'This team was started' : 'Started';
  return (
    <span data-testid="scheduled-by">
      {name ? (
        <>
          {what} by schedule <Link to={`/schedules/${scheduleId}`}>{name}</Link>
        </>
      ) : (
        `${what} by a schedule since deleted`
      )}
    </span>
  );
}
