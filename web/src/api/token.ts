// The API token, asked for once and kept for this tab only (sessionStorage): closing the tab forgets it.
const KEY = 'switchboard.apiToken';

/** http: the service's own 401 message; socket: the live connection was refused (no message of the service's). */
export type RefusedBy = 'http' | 'socket';
type Listener = (reason: string, by: RefusedBy) => void;
const listeners = new Set<Listener>();

export function currentToken(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function saveToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}

/** Raised by a 401 (HTTP) or a refused WebSocket: the app shows the token prompt with the reason. */
export function tokenRequired(reason: string, by: RefusedBy): void {
  for (const listener of listeners) listener(reason, by);
}

export function onTokenRequired(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Where people sign in, once the service said so (`details.signIn` on a 401, or a cookie-signed-in `me`):
 * then a refusal sends the browser there instead of asking for a token. Never a token in storage for them.
 */
let signInRoute: string | undefined;
let leaving = false;

export function signInAt(route: string): void {
  signInRoute = route;
}

export function signInRouteKnown(): string | undefined {
  return signInRoute;
}

/** Off to the sign-in page (once, however many calls were refused at the same time, and not while signing out). */
export function goToSignIn(route = signInRoute ?? '/auth/login'): void {
  if (leaving) return;
  leaving = true;
  window.location.assign(route);
}

/**
 * Signing out: the calls refused once the session ended must not send the browser to the sign-in (the
 * provider would sign the person straight back in); `done` leaves for `route`, a failure stays here.
 */
export async function leaveAfter(work: () => Promise<void>, route: string): Promise<void> {
  leaving = true;
  try {
    await work();
  } catch (error) {
    leaving = false;
    throw error;
  }
  window.location.assign(route);
}
