/**
 * The header the console sends on every request so what a person does there is recorded as the
 * console's. Any client may send it: it names the client, it is not a credential (the token is).
 */
export const CLIENT_HEADER = 'x-switchboard-client';

/** Who a person's request is recorded as: `console` when it carries `X-Switchboard-Client: console`, else `api`. */
export function personDecisionSource(header: string | string[] | undefined): 'console' | 'api' {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.trim().toLowerCase() === 'console' ? 'console' : 'api';
}
