import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { request } from '../../api/client';
import { ScheduledByNote } from '../../schedules/ScheduledByNote';
import { RunOwnerQuery } from '../operations';

/** A run's thread session id is `sub-agent-<runId>`: an owner of that shape is another run, not a chat. */
const RUN_THREAD = /^sub-agent-(.+)$/;

/**
 * Where the run's tree came from, in words: the chat that started it (a link), the schedule (a link),
 * the API, or another run. A child run's owner is its parent's thread; the chat or the schedule is the
 * root run's, asked for here.
 */
export function RunOwner({ ownerThreadId, rootRunId }: { ownerThreadId: string; rootRunId: string | undefined }) {
  const ownedByRun = RUN_THREAD.test(ownerThreadId);
  const root = useQuery({
    queryKey: ['runs', 'owner', rootRunId],
    queryFn: () => request(RunOwnerQuery, { id: rootRunId! }),
    enabled: ownedByRun && rootRunId !== undefined,
  });
  const owner = ownedByRun ? root.data?.run?.ownerThreadId : ownerThreadId;
  if (!owner) return null;
  const scheduledBy = ownedByRun ? root.data?.run?.scheduledBy : undefined;
  if (scheduledBy) return <ScheduledByNote scheduleId={scheduledBy.scheduleId} name={scheduledBy.schedule?.name} team />;
  if (owner === 'api') return <span>Started through the API</span>;
  if (RUN_THREAD.test(owner)) return null;
  return (
    <span>
      <Link to={`/sessions/${encodeURIComponent(owner)}`}>Open the chat that started {ownedByRun ? 'this team' : 'it'}</Link>
    </span>
  );
}
