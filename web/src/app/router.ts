import { useEffect, useState } from 'react';

// A router of a few lines: the console has a handful of pages, and pushState keeps deep links working
// (the service answers index.html for any page path).
const listeners = new Set<() => void>();

export function navigate(to: string): void {
  if (to === location.pathname + location.search) return;
  history.pushState(null, '', to);
  for (const listener of listeners) listener();
}

export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return path;
}

export type Route =
  | { page: 'library' }
  | { page: 'new-agent' }
  | { page: 'edit-agent'; id: string }
  | { page: 'sessions' }
  | { page: 'runs' }
  | { page: 'run'; id: string }
  | { page: 'new-session' }
  | { page: 'chat'; id: string }
  | { page: 'audit' }
  | { page: 'approvals' }
  | { page: 'health' }
  | { page: 'not-found'; path: string };

export function routeOf(path: string): Route {
  if (path === '/' || path === '/agents' || path === '/agents/') return { page: 'library' };
  if (path === '/agents/new') return { page: 'new-agent' };
  if (path === '/audit') return { page: 'audit' };
  if (path === '/approvals' || path === '/approvals/') return { page: 'approvals' };
  if (path === '/health-status') return { page: 'health' };
  if (path === '/sessions' || path === '/sessions/') return { page: 'sessions' };
  if (path === '/runs' || path === '/runs/') return { page: 'runs' };
  const run = /^\/runs\/([^/]+)$/.exec(path);
  if (run) return { page: 'run', id: decodeURIComponent(run[1]) };
  if (path === '/sessions/new') return { page: 'new-session' };
  const chat = /^\/sessions\/([A-Za-z0-9_.:-]+)$/.exec(path);
  if (chat) return { page: 'chat', id: chat[1] };
  const edit = /^\/agents\/([a-z0-9-]+)$/.exec(path);
  if (edit) return { page: 'edit-agent', id: edit[1] };
  return { page: 'not-found', path };
}

/** A link that navigates without a reload (and still opens in a new tab with a modifier key). */
export function linkHandler(to: string) {
  return (event: React.MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(to);
  };
}
