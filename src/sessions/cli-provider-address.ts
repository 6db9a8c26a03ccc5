import { MODEL_ROUTE_BASE_URL } from '../copilot-cli';

const ROUTE_HOST = new URL(MODEL_ROUTE_BASE_URL).host;
/** The placeholder with either scheme, as the CLI may print it; a path after it stays (the provider's URL has no trailing slash). */
const ROUTE_URL = new RegExp(`https?://${ROUTE_HOST.replace(/\./g, '\\.')}`, 'g');

/**
 * The CLI's own words about a model call (issue 39: "Could not connect to provider at
 * http://model-route.switchboard.invalid" when the provider was down) name the placeholder address
 * Switchboard gave it for the model route; people need the provider Switchboard forwards to. Every
 * string of a `session.error` payload names the configured provider's base URL instead (or "the model
 * provider" when none is configured); anything else is returned as it is.
 */
export function withProviderAddress<T>(payload: T, providerBaseUrl: string | undefined): T {
  const address = providerBaseUrl?.replace(/\/+$/, '') || 'the model provider';
  const rewrite = (value: unknown): unknown => {
    if (typeof value === 'string') return value.includes(ROUTE_HOST) ? value.replace(ROUTE_URL, address).split(ROUTE_HOST).join(address) : value;
    if (Array.isArray(value)) return value.map(rewrite);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]));
    return value;
  };
  return rewrite(payload) as T;
}
