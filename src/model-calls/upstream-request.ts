import type { CopilotCliConfig } from '../config';
import { MODEL_ROUTE_BASE_URL } from '../copilot-cli';

/** Headers as the CLI's llmInference frames carry them: lowercased names, each with its values. */
export type WireHeaders = Record<string, string[] | undefined>;

/** Hop-by-hop and length headers: fetch sets its own; forwarding the CLI's would corrupt the request. */
const NOT_FORWARDED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'proxy-connection', 'te', 'trailer']);
/** Credentials the CLI may put on a routed request: for a configured provider, only Switchboard's key is sent. */
const CREDENTIALS = new Set(['authorization', 'api-key', 'x-api-key']);

export interface UpstreamRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** `openai`, `azure`, `anthropic`, or `capi` (no provider configured: the CLI talks to GitHub's endpoint). */
  provider: string;
}

/**
 * Where a call the CLI handed over goes, and with which headers. With a configured provider the CLI
 * only knows the placeholder address (MODEL_ROUTE_BASE_URL): the path after it goes to the provider's
 * base URL, and the provider's key is added here in the header its shape expects. Without one (CAPI),
 * the request goes where the CLI asked, with the credentials the CLI put on it.
 */
export function upstreamRequestOf(cli: Pick<CopilotCliConfig, 'provider'>, asked: { url: string; method: string; headers: WireHeaders }): UpstreamRequest {
  const headers: Record<string, string> = {};
  const provider = cli.provider;
  for (const [name, values] of Object.entries(asked.headers)) {
    const lower = name.toLowerCase();
    if (NOT_FORWARDED.has(lower) || values === undefined || values.length === 0) continue;
    if (provider && CREDENTIALS.has(lower)) continue;
    headers[lower] = values.join(', ');
  }
  if (!provider) return { url: asked.url, method: asked.method, headers, provider: 'capi' };
  const { path } = pathAfterPlaceholder(asked.url);
  if (provider.apiKey) {
    if (provider.type === 'azure') headers['api-key'] = provider.apiKey;
    else if (provider.type === 'anthropic') headers['x-api-key'] = provider.apiKey;
    else headers.authorization = `Bearer ${provider.apiKey}`;
  }
  return { url: joinUrl(provider.baseUrl, path), method: asked.method, headers, provider: provider.type };
}

/** The path and query the CLI asked for, after the placeholder base (or after the host of any other URL). */
export function pathAfterPlaceholder(url: string): { path: string } {
  if (url.startsWith(MODEL_ROUTE_BASE_URL)) return { path: url.slice(MODEL_ROUTE_BASE_URL.length) || '/' };
  try {
    const parsed = new URL(url);
    return { path: `${parsed.pathname}${parsed.search}` };
  } catch {
    return { path: url };
  }
}

/** The path without its query, for the ledger: a query may carry an Azure api-version, never worth a column. */
export function pathForLedger(url: string): string {
  return pathAfterPlaceholder(url).path.split('?')[0] ?? '/';
}

function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}
