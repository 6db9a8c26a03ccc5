import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { request } from '../../api/client';
import { ScheduledByNote } from '../../schedules';
import type { RunHeaderQuery } from '../../gql/graphql';
import { RunOwnerQuery } from '../operations';
import { replayMarkOf, startedByText } from '../run-list';

/** A run's thread session id is `sub-agent-<runId>`: an owner of that shape is another run, not a chat. */
const RUN_THREAD = /^sub-agent-(.+)$/;

/**
 * Where the run's tree came from, in words: the chat that started it (a link), the schedule (a link),
 * the API, or another run. A child run's owner is its parent's thread; the chat or the schedule is the
 * root run's, asked for here.
 */
export function RunOwner({
  ownerThreadId,
  rootRunId,
  chatOnly = false,
}: {
  ownerThreadId: string;
  rootRunId: string | undefined;
  /** Only the chat's link: who started the run is said beside it (RunStart). */
  chatOnly?: boolean;
}) {
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
  if (owner === 'api') return chatOnly ? null : <span>Started through the API</span>;
  if (RUN_THREAD.test(owner)) return null;
  return (
    <span>
      <Link to={`/sessions/${encodeURIComponent(owner)}`}>Open the chat that started {ownedByRun ? 'this team' : 'it'}</Link>
    </span>
  );
}

/**
 * How the run started, from the run's own record, one statement: the schedule that fired it; a replay or
 * fork of its original, started by whom; else who started it (run.started's actor) with the chat it
 * came from. Runs recorded before their starter was (no startedBy) say what their owner thread tells.
 */
export function RunStart({ run }: { run: NonNullable<RunHeaderQuery['run']> }) {
  if (run.scheduledBy) return <ScheduledByNote scheduleId={run.scheduledBy.scheduleId} name={run.scheduledBy.schedule?.name} />;
  const mark = replayMarkOf(run);
  const who = run.startedBy ? startedByText(run) : undefined;
  if (mark) {
    return (
      <span data-testid="run-started">
        {mark.of ? (
          <>
            A {mark.kind} of <Link to={`/runs/${mark.of}`}>run {mark.of}</Link>
          </>
        ) : (
          <>Part of a {mark.kind}, with no original run</>
        )}
        {who && <>, started by {who}</>}
      </span>
    );
  }
  if (!who) return <RunOwner ownerThreadId={run.ownerThreadId} rootRunId={run.rootRunId ?? run.runId} />;
  return (
    <>
      <span data-testid="run-started">Started by {who}</span>
      <RunOwner ownerThreadId={run.ownerThreadId} rootRunId={run.rootRunId ?? run.runId} chatOnly />
    </>
  );
}

/**
 * issue 43: a remote agent's run runs on another service: which one, and the task it follows there (the
 * card's host names the service when the task has not been sent yet).
 */
export function RemoteRunNote({ remote }: { remote: NonNullable<NonNullable<RunHeaderQuery['run']>['remote']> }) {
  const host = hostOf(remote.a2a);
  const reported = [
    remote.reportedTokens !== null && remote.reportedTokens !== undefined ? `${remote.reportedTokens.toLocaleString('en')} tokens` : undefined,
    remote.reportedCost !== null && remote.reportedCost !== undefined
      ? `a cost of ${remote.reportedCost.toFixed(4)}${remote.reportedCurrency ? ` ${remote.reportedCurrency}` : ''}`
      : undefined,
  ]
    .filter(Boolean)
    .join(' and ');
  return (
    <span data-testid="run-remote">
      Runs on another service over A2A: <strong>{remote.service ?? host}</strong> at {host}
      {remote.taskId && (
        <>
          , as task <code>{remote.taskId}</code>
        </>
      )}
      {reported && <>; it reported {reported}</>}
    </span>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
