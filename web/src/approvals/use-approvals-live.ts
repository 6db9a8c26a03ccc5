import { useEffect } from 'react';
import { onLiveConnection, subscribe } from '../api/client';
import { useCoalesced } from '../api/hooks';
import { ApprovalsChangedSubscription } from './operations';

/**
 * Calls `reload` (coalesced) whenever an approval is asked, decided or expired, and when the live
 * connection comes back: what changed while it was down reached no subscription.
 */
export function useApprovalsLive(reload: () => unknown): void {
  const coalesced = useCoalesced(reload, 150);
  useEffect(() => {
    const stop = subscribe(ApprovalsChangedSubscription, {}, () => coalesced());
    const stopReconnects = onLiveConnection(coalesced);
    return () => {
      stop();
      stopReconnects();
    };
  }, [coalesced]);
}
