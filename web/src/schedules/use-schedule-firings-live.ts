import { useEffect } from 'react';
import { onLiveConnection, subscribe } from '../api/client';
import { useCoalesced } from '../api/hooks';
import { ScheduleFiringsSubscription } from './operations';

/**
 * Calls `reload` (coalesced) whenever a firing of the schedule (or of any, without an id) is claimed,
 * started, skipped or failed, and when the live connection comes back: what happened while it was down
 * reached no subscription.
 */
export function useScheduleFiringsLive(scheduleId: string | undefined, reload: () => unknown): void {
  const coalesced = useCoalesced(reload, 150);
  useEffect(() => {
    const stop = subscribe(ScheduleFiringsSubscription, scheduleId ? { scheduleId } : {}, () => coalesced());
    const stopReconnects = onLiveConnection(coalesced);
    return () => {
      stop();
      stopReconnects();
    };
  }, [scheduleId, coalesced]);
}
