import { databaseUnreachableOf, httpStatusOf, DomainError } from '../common';

/** After a temporary refusal, attempt n + 1 comes this long after attempt n failed (attempts 2, 3, 4). */
export const RETRY_DELAYS_MS = [10_000, 60_000, 300_000] as const;

/** The last attempt: a refusal of it is `failed` for good. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Causes that pass by themselves: the start is tried again. */
const TEMPORARY_CODES = new Set(['database_unavailable', 'service_stopping', 'cli_unavailable']);

/** What a refused start of a firing's run is recorded as. */
export interface StartRefusal {
  code: string;
  message: string;
  /** ISO: when the next attempt is due; null: not retried. */
  retryAt: string | null;
}

/**
 * The retry rule: a start refused for a temporary cause (the database or the CLI away, the service
 * stopping, any error that is not a domain refusal or is a 5xx one) is tried again 10 s, 60 s, then
 * 300 s later (attempts 2 to 4), then failed for good; a refusal of the request itself (unknown agent,
 * policy, budget, bad arguments: any other domain error) is failed at once.
 */
export function startRefusal(error: unknown, attempt: number, now: Date): StartRefusal {
  const unreachable = error instanceof DomainError ? undefined : databaseUnreachableOf(error);
  const refusal = unreachable ?? error;
  const code = refusal instanceof DomainError ? refusal.code : 'start_failed';
  const message = refusal instanceof Error ? refusal.message : String(refusal);
  const temporary = !(refusal instanceof DomainError) || TEMPORARY_CODES.has(code) || httpStatusOf(refusal) >= 500;
  const delay = temporary && attempt < MAX_ATTEMPTS ? RETRY_DELAYS_MS[attempt - 1] : undefined;
  return { code, message, retryAt: delay === undefined ? null : new Date(now.getTime() + delay).toISOString() };
}
