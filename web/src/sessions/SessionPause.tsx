import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type ApiError, request } from '../api/client';
import { asApiError } from '../api/mutation';
import { usePolling } from '../api/hooks';
import { ErrorNote } from '../ui/ErrorNote';
import { sessionKeys, usePauseSession, useUnpauseSession } from './mutations';
import { SessionPauseQuery } from './operations';

/** How often a paused session's waiting steps are counted again. */
const PAUSE_POLL_MS = 2000;

/**
 * Pause or unpause a live session (issue 26): a pause holds its main agent, its sub-agents and every run
 * it started at their next step; the badge says since when, by whom and how many steps wait.
 */
export function SessionPause({ sessionId, live, mayAct }: { sessionId: string; live: boolean; mayAct: boolean }) {
  const pause = useQuery({ queryKey: sessionKeys.pause(sessionId), queryFn: () => request(SessionPauseQuery, { id: sessionId }) });
  const writes = { pause: usePauseSession(), unpause: useUnpauseSession() };
  const [acting, setActing] = useState<'pausing' | 'unpausing' | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  const current = pause.data?.session?.pause ?? undefined;
  usePolling(() => {
    if (current) void pause.refetch();
  }, PAUSE_POLL_MS);

  const act = async (action: 'pause' | 'unpause') => {
    setActing(action === 'pause' ? 'pausing' : 'unpausing');
    setError(undefined);
    try {
      if (action === 'pause') await writes.pause.mutateAsync({ sessionId, reason: 'paused from the console' });
      else await writes.unpause.mutateAsync({ sessionId });
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setActing(undefined);
    }
  };

  if (!current && (!live || !mayAct)) return null;
  return (
    <div className="session-pause" role="region" aria-label="Pause">
      {current ? (
        <p>
          <span className="badge status-attention" data-testid="session-paused">
            paused
          </span>{' '}
          {current.target === 'run' ? 'Its run is paused' : 'Paused'} since {new Date(current.since).toLocaleTimeString()} by {current.by}: {current.held}{' '}
          step{current.held === 1 ? '' : 's'} waiting.
          {current.target === 'session' && mayAct && (
            <button type="button" className="primary" disabled={acting !== undefined} onClick={() => void act('unpause')}>
              {acting === 'unpausing' ? 'Unpausing…' : 'Unpause'}
            </button>
          )}
        </p>
      ) : (
        <p className="muted small">
          <button type="button" disabled={acting !== undefined} onClick={() => void act('pause')}>
            {acting === 'pausing' ? 'Pausing…' : 'Pause'}
          </button>{' '}
          Pausing holds the main agent, its sub-agents and every run this session started at their next step: model calls, tool calls, permission requests,
          hooks and questions wait. A tool already running finishes.
        </p>
      )}
      <ErrorNote error={error} title="The service refused" />
    </div>
  );
}
