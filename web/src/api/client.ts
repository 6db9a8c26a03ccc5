import { createClient, type Client } from 'graphql-ws';
import type { TypedDocumentString } from '../gql/graphql';
import { currentToken, goToSignIn, signInAt, signInRouteKnown, tokenRequired } from './token';

// Every query and mutation calls request(), which throws ApiError: TanStack Query's error is typed so.
declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
  }
}

/** An error the API answered, with its stable code and, for bad input, the problems per field. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly statusCode: number,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** `field: reason` problems (422/400) as a map from the field's path to its reasons. */
  fieldProblems(): Map<string, string[]> {
    const byField = new Map<string, string[]>();
    const problems = this.details?.problems;
    if (!Array.isArray(problems)) return byField;
    for (const problem of problems) {
      if (typeof problem === 'string') {
        const at = problem.indexOf(': ');
        const field = at > 0 ? problem.slice(0, at) : '';
        byField.set(field, [...(byField.get(field) ?? []), at > 0 ? problem.slice(at + 2) : problem]);
      } else if (problem && typeof problem === 'object') {
        // {field, reason} (a refused endpoint: "hooks[1].url") or {id, reason} (a sub-agent that cannot be used).
        const { id, field, reason } = problem as { id?: unknown; field?: unknown; reason?: unknown };
        if (typeof reason !== 'string') continue;
        const key = typeof field === 'string' ? field : typeof id === 'string' ? `sub_agents.${id}` : undefined;
        if (key !== undefined) byField.set(key, [...(byField.get(key) ?? []), reason]);
      }
    }
    return byField;
  }
}

interface GraphqlResponse<T> {
  data?: T | null;
  errors?: Array<{ message: string; extensions?: { code?: string; statusCode?: number; details?: Record<string, unknown> } }>;
}

/** Names the console to the service, which records a decision made here as the console's (not a credential). */
export const CONSOLE_CLIENT_HEADER = { 'X-Switchboard-Client': 'console' } as const;

function authorization(): Record<string, string> {
  const token = currentToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** One GraphQL operation over HTTP; its first error becomes an ApiError, a 401 asks for the token. */
export async function request<R, V>(document: TypedDocumentString<R, V>, ...[variables]: V extends Record<string, never> ? [] : [V]): Promise<R> {
  const sentWith = currentToken();
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...CONSOLE_CLIENT_HEADER, ...authorization() },
      body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
    });
  } catch {
    throw new ApiError('The service cannot be reached; check that it is running', 'unreachable', 0);
  }
  const body = (await response.json().catch(() => ({}))) as GraphqlResponse<R>;
  const first = body.errors?.[0];
  if (response.status === 401 || first?.extensions?.code === 'unauthorized') {
    // Sent before the console signed in with a new key (the first key closing the open API): ask again with it, no prompt.
    if (currentToken() !== sentWith) return request(document, ...([variables] as V extends Record<string, never> ? [] : [V]));
    const message = first?.message ?? 'The service needs its API token';
    const signIn = first?.extensions?.details?.signIn;
    // People sign in through the identity provider (details.signIn): no token prompt then.
    if (typeof signIn === 'string' && signIn.startsWith('/')) {
      signInAt(signIn);
      goToSignIn(signIn);
    } else tokenRequired(message, 'http');
    throw new ApiError(message, 'unauthorized', 401, first?.extensions?.details);
  }
  if (first)
    throw new ApiError(first.message, first.extensions?.code ?? 'error', first.extensions?.statusCode ?? response.status, first.extensions?.details);
  if (!response.ok || !body.data) throw new ApiError(`The service answered HTTP ${response.status}`, 'http_error', response.status);
  return body.data;
}

let socket: Client | undefined;
const connectedListeners = new Set<() => void>();

/**
 * Called each time the live connection is (re)established: what changed while it was down (or before the
 * first subscription was in place) reaches no subscription, so a page reloads its data then.
 */
export function onLiveConnection(listener: () => void): () => void {
  connectedListeners.add(listener);
  return () => connectedListeners.delete(listener);
}

/** The one graphql-ws connection, opened on first use; it sends the token when it connects. */
function subscriptions(): Client {
  socket ??= createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    connectionParams: () => authorization(),
    lazy: true,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    on: {
      connected: () => {
        for (const listener of connectedListeners) listener();
      },
      closed: (event) => {
        // 4403: the service refused the token (or the sign-in cookie) at connection_init; 4401: the key or
        // sign-in session the connection was opened with has ended since (revoked or expired), the reason says which.
        const { code, reason } = event as CloseEvent;
        if (code !== 4403 && code !== 4401) return;
        if (signInRouteKnown()) goToSignIn();
        else tokenRequired(code === 4401 && reason ? reason : 'The live connection was refused: the API token is missing or wrong', 'socket');
      },
    },
  });
  return socket;
}

/** Reconnects with the current token (after the prompt saved a new one). */
export function reconnect(): void {
  const old = socket;
  socket = undefined;
  void old?.dispose();
}

/**
 * Opens the live connection again with the current token, its subscriptions kept (graphql-ws subscribes
 * them again on the new socket): after the console signed in with the first key, without reloading pages.
 */
export function renewLiveConnection(): void {
  socket?.terminate();
}

/** A subscription; returns the function that ends it. */
export function subscribe<R, V>(document: TypedDocumentString<R, V>, variables: V, onData: (data: R) => void): () => void {
  return subscriptions().subscribe<R>(
    { query: document.toString(), variables: variables as Record<string, unknown> },
    {
      next: (result) => {
        if (result.data) onData(result.data);
      },
      error: () => undefined, // graphql-ws retries; the token case is handled on close
      complete: () => undefined,
    },
  );
}

/** Ends a cookie sign-in server-side (POST /auth/logout); the cookie is cleared by the answer. */
export async function signOutOfSession(): Promise<void> {
  // A JSON POST, as the service wants of every POST a page sends (a form post from another site cannot be one).
  const response = await fetch('/auth/logout', { method: 'POST', headers: { 'Content-Type': 'application/json', ...CONSOLE_CLIENT_HEADER }, body: '{}' });
  if (!response.ok && response.status !== 404)
    throw new ApiError(`Sign-out failed: the service answered HTTP ${response.status}`, 'http_error', response.status);
}
