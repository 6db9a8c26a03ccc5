/**
 * Who decides a permission request, as the audit records it (`decidedBy`, and the event's actor).
 * A person through the console or the API; the approval timeout; the session's permission policy,
 * or an earlier approval for the rest of the session; an expiry when the session ended first.
 */
export type DecisionSource = 'console' | 'api' | 'timeout' | 'policy' | 'session-grant' | 'expired' | 'switchboard';

/**
 * The header the console sends on every request so a decision made there is recorded as the
 * console's. Any client may send it: it names the client, it is not a credential (the token is).
 */
export const CLIENT_HEADER = 'x-switchboard-client';

/** `console` when the request carries `X-Switchboard-Client: console`, else `api`. */
export function personDecisionSource(header: string | string[] | undefined): 'console' | 'api' {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.trim().toLowerCase() === 'console' ? 'console' : 'api';
}
