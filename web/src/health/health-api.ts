import { ApiError, CONSOLE_CLIENT_HEADER } from '../api/client';
import { currentToken, tokenRequired } from '../api/token';

// The service's own health routes. They are open, but when the service has an API token their detail
// (what this page shows) comes only with it; without it each check is only ok or failing.

export interface ProjectionStatus {
  name: string;
  state: 'catching-up' | 'live' | 'failing';
  position: number;
  lag: number;
  lastError?: string;
  failingSince?: string;
  failedAttempts?: number;
  nextRetryAt?: string;
}

export interface HealthDetail {
  status: 'ok' | 'error';
  database: { status: 'up' | 'down'; file?: string; journalMode?: string; synchronous?: string; headPosition?: number; error?: string };
  projections?: ProjectionStatus[];
  copilotCli?: {
    running: boolean;
    transport: 'stdio' | 'tcp';
    pid?: number;
    version?: string;
    protocolVersion?: number;
    lastStartFailure?: string;
    exitsLastMinute: number;
  };
}

export type CheckName = 'database' | 'migrations' | 'projections' | 'copilotCli' | 'provider';

export interface Readiness {
  status: 'ready' | 'not_ready';
  failing: Array<{ check: CheckName; reason: string }>;
  /** Failing checks that do not make the service unready: the model provider not answering. */
  degraded: Array<{ check: CheckName; reason: string }>;
  checks: Record<CheckName, { ok: boolean; reason?: string; [detail: string]: unknown }>;
}

/** The provider check's detail (with the token): whether it answered the last look, and when it last did. */
export interface ProviderCheck {
  ok: boolean;
  reason?: string;
  kind?: 'provider' | 'github-token';
  type?: string;
  /** null: not checked (GitHub token); undefined: no provider configured. */
  answering?: boolean | null;
  endpoint?: string;
  checkedAt?: string;
  lastAnsweredAt?: string;
  latencyMs?: number;
}

/** The provider check alone, for the chat's banner: one request to /health/ready (cached by the service). */
export async function loadProviderCheck(): Promise<ProviderCheck> {
  const readiness = await getHealth<{ checks: Record<CheckName, ProviderCheck | 'ok' | 'failing'> }>('/health/ready');
  const check = readiness.checks.provider;
  // Without the token only ok / failing comes back: enough to say it fails, not why.
  return typeof check === 'string' ? { ok: check === 'ok' } : check;
}

/** GET a health route: 503 is an answer (a failing check), not an error; anything else unexpected is. */
async function getHealth<T>(path: string): Promise<T> {
  let response: Response;
  try {
    const token = currentToken();
    response = await fetch(path, {
      headers: { Accept: 'application/json', ...CONSOLE_CLIENT_HEADER, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      cache: 'no-store',
    });
  } catch {
    throw new ApiError('The service cannot be reached; check that it is running', 'unreachable', 0);
  }
  if (response.status !== 200 && response.status !== 503) throw new ApiError(`${path} answered HTTP ${response.status}`, 'http_error', response.status);
  return (await response.json()) as T;
}

const HEALTH_NEEDS_TOKEN = 'The health detail needs the API token';

export async function loadHealth(): Promise<{ detail: HealthDetail; readiness: Readiness; at: Date }> {
  const sentWith = currentToken();
  const [detail, readiness] = await Promise.all([getHealth<HealthDetail>('/health'), getHealth<Readiness>('/health/ready')]);
  // Only ok / failing per check came back: the token is missing or wrong.
  if (!('database' in detail)) {
    // Asked before a token was saved (the page polls while the prompt is open): ask again with it, no prompt.
    if (currentToken() !== sentWith) return loadHealth();
    tokenRequired(HEALTH_NEEDS_TOKEN, 'http');
    throw new ApiError(HEALTH_NEEDS_TOKEN, 'unauthorized', 401);
  }
  return { detail, readiness, at: new Date() };
}
