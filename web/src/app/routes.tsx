import { Link, useParams, type RouteObject } from 'react-router';
import { AgentEditorPage, AgentLibraryPage } from '../agents';
import { ApiDocsPage } from '../api-docs';
import { ApprovalsPage } from '../approvals';
import { AuditPage } from '../audit';
import { HealthPage } from '../health';
import { KeysPage } from '../keys';
import { RunPage, RunsPage } from '../runs';
import { ScheduleDetailPage, ScheduleEditorPage, SchedulesPage } from '../schedules';
import { ChatPage, NewSessionPage, SessionsPage } from '../sessions';

// The console's route table: every page, its path and the typed props its params become; each page
// comes from its feature's entry file (index.ts). Features never import this (nor anything in app/):
// they link with react-router's Link and useNavigate.

/** The ids the service gives out: a path segment of another shape is no page of ours. */
const AGENT_ID = /^[a-z0-9-]+$/;
const SESSION_ID = /^[A-Za-z0-9_.:-]+$/;
const SCHEDULE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function NotFound() {
  const path = useParams()['*'];
  return (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        Nothing lives at <code>/{path}</code>. <Link to="/agents">Go to the agent library</Link>.
      </p>
    </section>
  );
}

function EditAgentRoute() {
  const { agentId = '' } = useParams<'agentId'>();
  return AGENT_ID.test(agentId) ? <AgentEditorPage key={agentId} agentId={agentId} /> : <NotFound />;
}

function RunRoute() {
  const { runId = '' } = useParams<'runId'>();
  return <RunPage key={runId} runId={runId} />;
}

function ChatRoute() {
  const { sessionId = '' } = useParams<'sessionId'>();
  return SESSION_ID.test(sessionId) ? <ChatPage key={sessionId} sessionId={sessionId} /> : <NotFound />;
}

function ScheduleRoute() {
  const { scheduleId = '' } = useParams<'scheduleId'>();
  return SCHEDULE_ID.test(scheduleId) ? <ScheduleDetailPage key={scheduleId} scheduleId={scheduleId} /> : <NotFound />;
}

function EditScheduleRoute() {
  const { scheduleId = '' } = useParams<'scheduleId'>();
  return SCHEDULE_ID.test(scheduleId) ? <ScheduleEditorPage key={scheduleId} scheduleId={scheduleId} /> : <NotFound />;
}

/** The main menu's sections: which one is current on a path (aria-current). */
export type Section = 'agents' | 'sessions' | 'runs' | 'schedules' | 'approvals' | 'audit' | 'health' | 'keys';

export function sectionOf(path: string): Section | undefined {
  if (path === '/' || path === '/agents' || path.startsWith('/agents/')) return 'agents';
  if (path === '/sessions' || path.startsWith('/sessions/')) return 'sessions';
  if (path === '/runs' || path.startsWith('/runs/')) return 'runs';
  if (path === '/schedules' || path.startsWith('/schedules/')) return 'schedules';
  if (path === '/approvals' || path === '/approvals/') return 'approvals';
  if (path === '/audit') return 'audit';
  if (path === '/health-status') return 'health';
  if (path === '/keys') return 'keys';
  return undefined;
}

export const routes: RouteObject[] = [
  { path: '/', element: <AgentLibraryPage /> },
  { path: '/agents', element: <AgentLibraryPage /> },
  { path: '/agents/new', element: <AgentEditorPage /> },
  { path: '/agents/:agentId', element: <EditAgentRoute /> },
  { path: '/sessions', element: <SessionsPage /> },
  { path: '/sessions/new', element: <NewSessionPage /> },
  { path: '/sessions/:sessionId', element: <ChatRoute /> },
  { path: '/runs', element: <RunsPage /> },
  { path: '/runs/:runId', element: <RunRoute /> },
  { path: '/schedules', element: <SchedulesPage /> },
  { path: '/schedules/new', element: <ScheduleEditorPage /> },
  { path: '/schedules/:scheduleId', element: <ScheduleRoute /> },
  { path: '/schedules/:scheduleId/edit', element: <EditScheduleRoute /> },
  { path: '/approvals', element: <ApprovalsPage /> },
  { path: '/audit', element: <AuditPage /> },
  { path: '/health-status', element: <HealthPage /> },
  { path: '/keys', element: <KeysPage /> },
  // Not under /api: the service answers that path itself (and the dev server forwards it).
  { path: '/docs/api', element: <ApiDocsPage /> },
  { path: '*', element: <NotFound /> },
];
