/** The cookie holding a signed-in person's session id (HttpOnly: page scripts never see it). */
export const SESSION_COOKIE = 'switchboard_session';
/** The cookie holding an unfinished sign-in's state, nonce and PKCE verifier, from /auth/login to /auth/callback. */
export const PENDING_SIGN_IN_COOKIE = 'switchboard_sign_in';

/** One cookie's value from a Cookie header (or several), undefined when absent. */
export function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  for (const line of Array.isArray(header) ? header : [header ?? '']) {
    for (const pair of line.split(';')) {
      const at = pair.indexOf('=');
      if (at > 0 && pair.slice(0, at).trim() === name) {
        try {
          return decodeURIComponent(pair.slice(at + 1).trim());
        } catch {
          return undefined;
        }
      }
    }
  }
  return undefined;
}

/** A Set-Cookie value: HttpOnly and SameSite=Lax always, Secure when the console is served over https. */
export function cookieHeader(name: string, value: string, options: { path: string; maxAgeSeconds: number; secure: boolean }): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`, `Max-Age=${options.maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
