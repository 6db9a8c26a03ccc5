import type { ConsoleBundle } from './console';

export interface StartFacts {
  host: string;
  port: number;
  /** SWITCHBOARD_PUBLIC_URL, when set: the address people use, whatever the service listens on. */
  publicUrl?: string;
  tokenRequired: boolean;
  /** OpenID Connect sign-in configured: people sign in at /auth/login. */
  signIn?: boolean;
  console: ConsoleBundle['state'];
}

/**
 * The one line a person at a terminal reads after `npm start`: where the console is and whether it
 * asks for a token. The JSON logs around it are for machines (and stay the only output when stdout is not a terminal).
 */
export function startBanner(facts: StartFacts): string {
  const base = facts.publicUrl ?? `http://${browsableHost(facts.host)}:${facts.port}`;
  const access = facts.signIn ? 'people sign in at /auth/login' : facts.tokenRequired ? 'sign in with the SWITCHBOARD_API_TOKEN value' : 'no token needed';
  const console =
    facts.console === 'served'
      ? `console at ${base}/ (${access})`
      : facts.console === 'missing'
        ? `the console is not built (run npm run build:web), API at ${base}/api (${access})`
        : `console off (SWITCHBOARD_CONSOLE=false), API at ${base}/api (${access})`;
  return `Switchboard is up: ${console}; API docs ${base}/api/docs, GraphQL IDE ${base}/graphql`;
}

/** A wildcard listen address is not something a browser can open; localhost always reaches it (and is a served name). */
function browsableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
