import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { request } from '../api/client';
import { SessionTitleQuery } from './operations';
import { sessionTitle } from './session-list';

/** A session's title (read once per session and cached), loaded lazily where a page only has the session's id. */
export function useSessionTitle(sessionId: string): string | undefined {
  const found = useQuery({
    queryKey: ['session-title', sessionId],
    queryFn: () => request(SessionTitleQuery, { id: sessionId }),
    staleTime: 60_000,
  });
  if (!found.data) return undefined;
  return found.data.session ? sessionTitle(found.data.session) : `Session ${sessionId.slice(0, 8)} (gone)`;
}

/** A link to a chat, named by its title (issue 39): pages that list a session's requests or events say which chat, not its id. */
export function SessionTitleLink({ sessionId, className }: { sessionId: string; className?: string }) {
  const title = useSessionTitle(sessionId);
  return (
    <Link className={className} to={`/sessions/${sessionId}`} title={`Session ${sessionId}`}>
      {title ?? `Session ${sessionId.slice(0, 8)}`}
    </Link>
  );
}
