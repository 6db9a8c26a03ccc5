import { Link } from 'react-router';
import type { ScheduleFiringFieldsFragment } from '../gql/graphql';
import { outcomeTone } from './schedule-draft';

/** A firing's outcome as a badge: its run's status (a link to the run) once started, else why not, on hover and for screen readers. */
export function FiringOutcome({ firing }: { firing: ScheduleFiringFieldsFragment }) {
  const badge = (
    <span className={`badge status-${outcomeTone(firing.outcome)}`} title={firing.reason?.message}>
      {firing.outcome}
    </span>
  );
  if (firing.runId && firing.runStatus) {
    return (
      <Link to={`/runs/${firing.runId}`} aria-label={`${firing.outcome}: open its run`}>
        {badge}
      </Link>
    );
  }
  return (
    <span>
      {badge}
      {firing.reason && <span className="visually-hidden">: {firing.reason.message}</span>}
    </span>
  );
}
