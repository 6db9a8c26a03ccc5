import { Link } from 'react-router';

/** On a run's page: "Started by schedule <name>", a link back to it, when a schedule's firing started the run. */
export function ScheduledByNote({ scheduleId, name }: { scheduleId: string; name: string | undefined }) {
  return (
    <span data-testid="scheduled-by">
      {name ? (
        <>
          Started by schedule <Link to={`/schedules/${scheduleId}`}>{name}</Link>
        </>
      ) : (
        'Started by a schedule since deleted'
      )}
    </span>
  );
}
