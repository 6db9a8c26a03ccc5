// What the session list shows and offers for a session, from its status alone (the service's rules:
// only an interrupted session resumes; a destroyed or failed one is over and cannot be destroyed again).

export type SessionAction = 'resume' | 'destroy';

const OVER = new Set(['destroyed', 'failed']);

export function actionsFor(status: string): SessionAction[] {
  if (OVER.has(status)) return [];
  return status === 'interrupted' ? ['resume', 'destroy'] : ['destroy'];
}

/** The colour family of a status badge: working, waiting for a person, needing attention, over. */
export function statusTone(status: string): 'live' | 'attention' | 'over' | 'pending' {
  if (status === 'running' || status === 'active' || status === 'idle') return 'live';
  if (status === 'interrupted' || status === 'failed') return 'attention';
  if (status === 'destroyed') return 'over';
  return 'pending';
}

/** "just now", "5 min ago", "3 h ago", "2 days ago": the list's last activity at a glance (the exact time is in the title). */
export function timeAgo(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

/** What a session is called in the list: its title (the CLI's, else its first message), or a plain word before any message. */
export function sessionTitle(session: { title?: string | null }): string {
  return session.title?.trim() || 'Untitled session';
}

/** The start of a session id, enough to tell sessions apart where the whole id is too long to read. */
export function shortId(sessionId: string): string {
  return sessionId.length > 13 ? `${sessionId.slice(0, 8)}…` : sessionId;
}

/** A run named as a person reads it: "<agent>: <task>", the task cut to one short line. */
export function runLabel(run: { agentId: string; prompt: string }, agentName?: string): string {
  const task = run.prompt.replace(/\s+/g, ' ').trim();
  const shown =
    Array.from(task).length > RUN_TASK_MAX
      ? `${Array.from(task)
          .slice(0, RUN_TASK_MAX - 1)
          .join('')
          .trimEnd()}…`
      : task;
  return `${agentName ?? run.agentId}: ${shown}`;
}

const RUN_TASK_MAX = 60;
