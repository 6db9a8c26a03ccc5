import { ApiError } from '../api/client';

// The service's own health routes (public, no token): the page shows what an operator's probe sees.

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
  checks: Record<CheckName, { ok: boolean; reason?: string; [detail: string]: unknown }>;
}

/** GET a health route: 503 is an answer (a failing check), not an error; anything else unexpected is. */
async function getHealth<T>(path: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  } catch {
    throw new ApiError('The service cannot be reached; check that it is running', 'unreachable', 0);
  }
  if (response.status !== 200 && response.status !== 503) throw new ApiError(`${path} answered HTTP ${response.status}`, 'http_error', response.status);
  return (await response.json()) as T;
}

export async function loadHealth(): Promise<{ detail: HealthDetail; readiness: Readiness; at: Date }> {
  const [detail, readiness] = await Promise.all([getHealth<HealthDetail>('/health'), getHealth<Readiness>('/health/ready')]);
  return { detail, readiness, at: new Date() };
}
