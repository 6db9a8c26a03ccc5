import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { request } from '../../api/client';
import { useCoalesced } from '../../api/hooks';
import { RunUsageQuery } from '../operations';

/**
 * The subtree's runs, tokens and tool calls as the service sums them (Run.usage.subtree), asked again
 * after each frame of live events (`version`), at most every 300 ms.
 */
export function RunUsageLine({ runId, version, hasEvents }: { runId: string; version: number; hasEvents: boolean }) {
  const usage = useQuery({ queryKey: ['runs', 'usage', runId], queryFn: () => request(RunUsageQuery, { id: runId }) });
  const refetchSoon = useCoalesced(usage.refetch, 300);
  useEffect(() => {
    if (version > 0) refetchSoon();
  }, [version, refetchSoon]);
  const subtree = usage.data?.run?.usage.subtree;
  return (
    <p className="muted small" role="status">
      {!hasEvents || !subtree
        ? 'Waiting for the run’s events…'
        : `${subtree.runs} run${subtree.runs === 1 ? '' : 's'}, ${subtree.totalTokens} tokens, ${subtree.toolCalls} tool calls in the subtree`}
    </p>
  );
}
