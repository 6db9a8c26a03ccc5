import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { reconnect, signOutOfSession } from '../api/client';
import { useMay, useMe } from '../api/me';
import { currentToken, forgetToken, leaveAfter, onTokenRequired, signInAt } from '../api/token';
import { Link, useLocation, useRoutes } from 'react-router';
import { ApprovalsBadge, ApprovalsCount } from '../approvals';
import { Icon } from '../ui/icons';
import { routes, sectionOf, type Section } from './routes';
import { useTheme } from './theme';
import { TokenDialog } from './TokenDialog';

/** Where Sign out of a cookie session lands: nothing is read there, so nothing signs the browser in again. */
export const SIGNED_OUT_PATH = '/signed-out';

export function App() {
  const { pathname } = useLocation();
  return pathname === SIGNED_OUT_PATH ? <SignedOut /> : <Console />;
}

/** After Sign out: the session ended at the service; signing in again is a click away, never automatic. */
function SignedOut() {
  return (
    <main id="main" className="page signed-out">
      <h1>Signed out</h1>
      <p>Your sign-in session has ended on the service.</p>
      <p>
        <a className="button primary" href="/auth/login">
          Sign in again
        </a>
      </p>
    </main>
  );
}

/** Who is signed in, and their role, from GraphQL `me`. */
function SignedInAs() {
  const { data } = useMe();
  if (!data) return null;
  const { name, role } = data.me;
  return (
    <span className="signed-in-as" data-testid="signed-in-as" title={`Signed in as ${name}, role ${role}`}>
      <Icon name="user" />
      <span className="signed-in-name">{name}</span>
      <span className="badge role-badge">{role}</span>
    </span>
  );
}

/** The main navigation, in its order; Keys only for who may administer. */
const MAIN_LINKS: ReadonlyArray<{ section: Section; to: string; label: string }> = [
  { section: 'agents', to: '/agents', label: 'Agents' },
  { section: 'sessions', to: '/sessions', label: 'Sessions' },
  { section: 'runs', to: '/runs', label: 'Runs' },
  { section: 'schedules', to: '/schedules', label: 'Schedules' },
  { section: 'approvals', to: '/approvals', label: 'Approvals' },
  { section: 'audit', to: '/audit', label: 'Audit' },
  { section: 'health', to: '/health-status', label: 'Health' },
  { section: 'keys', to: '/keys', label: 'Keys' },
];

function Console() {
  const page = useRoutes(routes);
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const section = sectionOf(pathname);
  const me = useMe().data?.me;
  const mayAdminister = useMay('administer');
  const signedInByCookie = me?.via === 'cookie';
  useEffect(() => {
    // A person signed in through the identity provider: a later refusal sends them back there, never to a token prompt.
    if (signedInByCookie) signInAt('/auth/login');
  }, [signedInByCookie]);
  const current = (of: Section) => (section === of ? 'page' : undefined);
  const [theme, toggleTheme] = useTheme();
  const [tokenReason, setTokenReason] = useState<string | undefined>();
  const [askingToken, setAskingToken] = useState(false);
  // Set when the service itself refused the token, until a new one is saved.
  const refusedByService = useRef(false);
  // Bumped when a new token is saved: every page reloads its data and subscriptions with it.
  const [generation, setGeneration] = useState(0);

  // The path the narrow screen's menu was opened on: going to another page (its links are what take
  // you there) closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | undefined>();
  const menuOpen = menuOpenOn === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? pathname : undefined);
  const header = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpenOn(undefined);
      menuButton.current?.focus();
    };
    // A click or tap outside the bar closes the menu, as a tap on the page behind it means "not now".
    const onPointer = (event: PointerEvent) => {
      if (event.target instanceof Node && !header.current?.contains(event.target)) setMenuOpenOn(undefined);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [menuOpen]);

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

  // A cookie session ends at the service; a saved token is forgotten here and asked for again.
  const signOut = signedInByCookie
    ? () => {
        void leaveAfter(signOutOfSession, SIGNED_OUT_PATH).catch((error: unknown) => window.alert(String(error)));
      }
    : currentToken()
      ? () => {
          forgetToken();
          reconnect();
          setTokenReason('Signed out. Enter the API token to continue.');
          setAskingToken(true);
        }
      : undefined;

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar" ref={header}>
        <Link className="brand" to="/agents">
          <img src="/favicon.svg" alt="" width={22} height={22} />
          Switchboard
        </Link>
        {/* On a narrow screen the links and secondary actions fold behind this button (a disclosure). */}
        <button
          type="button"
          className="ghost menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="topbar-menu"
          ref={menuButton}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <Icon name={menuOpen ? 'close' : 'menu'} />
          Menu
          <ApprovalsCount />
        </button>
        <div id="topbar-menu" className={menuOpen ? 'topbar-menu open' : 'topbar-menu'}>
          <nav aria-label="Main">
            {MAIN_LINKS.filter((link) => link.section !== 'keys' || mayAdminister).map((link) => (
              <Link key={link.section} aria-current={current(link.section)} to={link.to}>
                {link.label}
                {link.section === 'approvals' && <ApprovalsBadge key={generation} />}
              </Link>
            ))}
          </nav>
          <div className="topbar-actions">
            <Link to="/docs/api" className="quiet-link">
              API docs
            </Link>
            <SignedInAs key={generation} />
            {signOut && (
              <button type="button" className="ghost" onClick={signOut}>
                Sign out
              </button>
            )}
          </div>
        </div>
        <button
          type="button"
          className="ghost icon-button theme-toggle"
          onClick={toggleTheme}
          aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
        >
          <Icon name={theme === 'dark' ? 'light' : 'dark'} />
        </button>
      </header>
      <main id="main" key={generation}>
        {page}
      </main>
      {askingToken && (
        <TokenDialog
          reason={tokenReason}
          onSaved={() => {
            refusedByService.current = false;
            setAskingToken(false);
            reconnect();
            // Nothing read under the old token is kept: every page loads again with the new one.
            queryClient.clear();
            setGeneration((g) => g + 1);
          }}
        />
      )}
    </>
  );
}
