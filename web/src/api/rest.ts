import { ApiError, CONSOLE_CLIENT_HEADER } from './client';
import { currentToken, goToSignIn, signInAt, tokenRequired } from './token';

// The few REST reads the console makes where GraphQL has no field (a workspace's changes and diff, issue 42):
// the same credential and the same 401 handling as request(), the service's `{code, message}` as the ApiError.

function authorization(): Record<string, string> {
  const token = currentToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * GET a REST route as JSON (`as: 'json'`) or text (`as: 'text'`, a diff). 404 answers `null`: the routes
 * read here say "nothing of that kind" so (a session without a workspace), which a page shows as nothing.
 * A 401 asks for the token, or sends a person to the sign-in, as request() does.
 */
export async function getRest<T>(path: string, as: 'json'): Promise<T | null>;
export async function getRest(path: string, as: 'text'): Promise<string | null>;
export async function getRest<T>(path: string, as: 'json' | 'text'): Promise<T | string | null> {
  const sentWith = currentToken();
  let response: Response;
  try {
    response = await fetch(path, {
      headers: { Accept: as === 'json' ? 'application/json' : 'text/x-diff, text/plain', ...CONSOLE_CLIENT_HEADER, ...authorization() },
      cache: 'no-store',
    });
  } catch {
    throw new ApiError('The service cannot be reached; check that it is running', 'unreachable', 0);
  }
  if (response.status === 404) return null;
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as { code?: string; message?: string; details?: Record<string, unknown> } | undefined;
    const message = body?.message ?? `${path} answered HTTP ${response.status}`;
    if (response.status === 401) {
      // Sent before a new token was saved: ask again with it, no prompt (as request() does).
      if (currentToken() !== sentWith) return as === 'json' ? getRest<T>(path, 'json') : getRest(path, 'text');
      const signIn = body?.details?.signIn;
      if (typeof signIn === 'string' && signIn.startsWith('/')) {
        signInAt(signIn);
        goToSignIn(signIn);
      } else tokenRequired(message, 'http');
      throw new ApiError(message, 'unauthorized', 401, body?.details);
    }
    throw new ApiError(message, body?.code ?? 'http_error', response.status, body?.details);
  }
  return as === 'json' ? ((await response.json()) as T) : response.text();
}
