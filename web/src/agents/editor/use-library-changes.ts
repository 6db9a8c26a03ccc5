import { useEffect, useState } from 'react';
import { onLiveConnection, subscribe } from '../../api/client';
import { useCoalesced, useLatest } from '../../api/hooks';
import { AgentLibraryChangedSubscription } from '../operations';

export interface ChangedElsewhere {
  version: number;
  deleted: boolean;
}

/**
 * Another tab or the API changing the library: `refresh` (coalesced) refreshes the choices and the check;
 * this agent itself changing past `loadedVersion` is a notice that offers a reload, never a silent
 * overwrite of the form.
 */
export function useLibraryChanges(
  agentId: string | undefined,
  loadedVersion: number | undefined,
  refresh: () => void,
): [ChangedElsewhere | undefined, (next: ChangedElsewhere | undefined) => void] {
  const [changedElsewhere, setChangedElsewhere] = useState<ChangedElsewhere | undefined>();
  const loadedVersionRef = useLatest(loadedVersion);
  const refreshSoon = useCoalesced(refresh, 150);
  useEffect(() => onLiveConnection(refreshSoon), [refreshSoon]);
  useEffect(
    () =>
      subscribe(AgentLibraryChangedSubscription, {}, ({ agentLibraryChanged: change }) => {
        refreshSoon();
        if (agentId && change.agentId === agentId && loadedVersionRef.current !== undefined && change.version > loadedVersionRef.current) {
          setChangedElsewhere({ version: change.version, deleted: change.change === 'deleted' });
        }
      }),
    [agentId, refreshSoon, loadedVersionRef],
  );
  return [changedElsewhere, setChangedElsewhere];
}
