import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { request } from '../../api/client';
import { usePolling } from '../../api/hooks';
import { RunHeaderQuery } from '../operations';
import { headerLagsLiveStatus } from './header-lag';
import { runHeaderKey } from '../mutations';

/** How often a running budgeted run's use is asked again. */
const BUDGET_POLL_MS = 2000;

/**
 * The run as the service reads it. A budget's use is the service's own count (its guard's sums): asked
 * again while the run works, and once more when its live status changes (the final count of a run that
 * just ended).
 */
export function useRunHeader(runId: string, liveStatus: string | undefined) {
  const header = useQuery({ queryKey: runHeaderKey(runId), queryFn: () => request(RunHeaderQuery, { id: runId }) });
  const loaded = header.data?.run;
  usePolling(() => {
    // A pause's waiting steps are counted by the service: asked again while it holds.
    if ((loaded?.budget && (liveStatus ?? loaded.status) === 'running') || loaded?.pause) void header.refetch();
  }, BUDGET_POLL_MS);
  const { refetch, isFetching } = header;
  useEffect(() => {
    if (liveStatus) void refetch();
  }, [liveStatus, refetch]);
  // A status change seen while the first read is still under way does not start a second read (TanStack
  // Query joins a query's first fetch): that read can predate the change (a replay that stopped at its
  // divergence, read before it diverged). So the header is read again until it has caught up with the
  // live status.
  const lags = headerLagsLiveStatus(liveStatus, loaded?.status);
  useEffect(() => {
    if (lags && !isFetching) void refetch();
  }, [lags, isFetching, refetch]);
  return header;
}
