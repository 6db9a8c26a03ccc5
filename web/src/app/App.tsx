import { useEffect, useRef, useState } from 'react';
import { reconnect } from '../api/client';
import { currentToken, forgetToken, onTokenRequired } from '../api/token';
import { AgentEditorPage } from '../agents/AgentEditorPage';
import { AgentLibraryPage } from '../agents/AgentLibraryPage';
import { ApprovalsBadge } from '../approvals/ApprovalsBadge';
import { ApprovalsPage } from '../approvals/ApprovalsPage';
import { AuditPage } from '../audit/AuditPage';
import { HealthPage } from '../health/HealthPage';
import { RunPage } from '../runs/RunPage';
import { RunsPage } from '../runs/RunsPage';
import { ChatPage } from '../sessions/ChatPage';
import { NewSessionPage } from '../sessions/NewSessionPage';
import { SessionsPage } from '../sessions/SessionsPage';
import { linkHandler, routeOf, usePath } from './router';
import { useTheme } from './theme';
import { TokenDialog } from './TokenDialog';

export function App() {
  const path = usePath();
  const route = routeOf(path);
  const [theme, toggleTheme] = useTheme();
  const [tokenReason, setTokenReason] = useState<string | undefined>();
  const [askingToken, setAskingToken] = useState(false);
  // Set when the service itself refused the token, until a new one is saved.
  const refusedByService = useRef(false);
  // Bumped when a new token is saved: every page reloads its data and subscriptions with it.
  const [generation, setGeneration] = useState(0);

  useEffect(
    () =>
      onTokenRequired((reason, by) => {
        const text = currentToken() ? `${reason} (the saved token was refused)` : reason;
        // The service's own 401 message wins over the socket's generic one, whichever arrives first.
        if (by === 'http') refusedByService.current = true;
        else if (refusedByService.current) return;
        setTokenReason(text);
        setAskingToken(true);
      }),
    [],
  );

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <a className="brand" href="/agents" onClick={linkHandler('/agents')}>
          <img src="/favicon.svg" alt="" width={22} height={22} />
          Switchboard
        </a>
        <nav aria-label="Main">
          <a
            href="/agents"
            onClick={linkHandler('/agents')}
            aria-current={['library', 'new-agent', 'edit-agent'].includes(route.page) ? 'page' : undefined}
          >
            Agents
          </a>
          <a
            href="/sessions"
            onClick={linkHandler('/sessions')}
            aria-current={['sessions', 'new-session', 'chat'].includes(route.page) ? 'page' : undefined}
          >
            Sessions
          </a>
          <a href="/runs" onClick={linkHandler('/runs')} aria-current={route.page === 'runs' || route.page === 'run' ? 'page' : undefined}>
            Runs
          </a>
          <a href="/approvals" onClick={linkHandler('/approvals')} aria-current={route.page === 'approvals' ? 'page' : undefined}>
            Approvals
            <ApprovalsBadge key={generation} />
          </a>
          <a href="/audit" onClick={linkHandler('/audit')} aria-current={route.page === 'audit' ? 'page' : undefined}>
            Audit
          </a>
          <a href="/health-status" onClick={linkHandler('/health-status')} aria-current={route.page === 'health' ? 'page' : undefined}>
            Health
          </a>
        </nav>
        <div className="topbar-actions">
          <a href="/api/docs" className="quiet-link">
            API docs
          </a>
          {currentToken() && (
            <button
              type="button"
              className="ghost"
              onClick={() => {
                forgetToken();
                reconnect();
                setTokenReason('Signed out. Enter the API token to continue.');
                setAskingToken(true);
              }}
            >
              Sign out
            </button>
          )}
          <button
            type="button"
            className="ghost icon-button"
            onClick={toggleTheme}
            aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
          >
            {theme === 'dark' ? '☀' : '☾'}
          </button>
        </div>
      </header>
      <main id="main" key={generation}>
        {route.page === 'library' && <AgentLibraryPage />}
        {route.page === 'new-agent' && <AgentEditorPage />}
        {route.page === 'edit-agent' && <AgentEditorPage key={route.id} agentId={route.id} />}
        {route.page === 'audit' && <AuditPage />}
        {route.page === 'approvals' && <ApprovalsPage />}
        {route.page === 'health' && <HealthPage />}
        {route.page === 'sessions' && <SessionsPage />}
        {route.page === 'runs' && <RunsPage />}
        {route.page === 'run' && <RunPage key={route.id} runId={route.id} />}
        {route.page === 'new-session' && <NewSessionPage />}
        {route.page === 'chat' && <ChatPage key={route.id} sessionId={route.id} />}
        {route.page === 'not-found' && (
          <section className="page">
            <h1>Page not found</h1>
            <p>
              Nothing lives at <code>{route.path}</code>.{' '}
              <a href="/agents" onClick={linkHandler('/agents')}>
                Go to the agent library
              </a>
              .
            </p>
          </section>
        )}
      </main>
      {askingToken && (
        <TokenDialog
          reason={tokenReason}
          onSaved={() => {
            refusedByService.current = false;
            setAskingToken(false);
            reconnect();
            setGeneration((g) => g + 1);
          }}
        />
      )}
    </>
  );
}
