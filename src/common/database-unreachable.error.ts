import { HttpStatus } from '@nestjs/common';
import { DomainError } from './domain-error';

/** How long a client is told to wait before it retries (the Retry-After header, in seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * The database did not answer (its connection died, it is restarting, it refuses connections): a
 * temporary condition, HTTP 503 `database_unavailable` with Retry-After. `outcome` says what became of
 * a write: `not_written` (it rolled back or never started) or `unknown` (COMMIT was sent and the
 * connection died before its answer: it may have committed; read before retrying a non-idempotent write).
 */
export class DatabaseUnreachableError extends DomainError {
  static override readonly httpStatus = HttpStatus.SERVICE_UNAVAILABLE;
  readonly code = 'database_unavailable';

  constructor(cause: Error, outcome?: 'not_written' | 'unknown') {
    const what =
      outcome === 'unknown'
        ? 'the write may or may not have committed (the connection died after COMMIT was sent); read before retrying it'
        : outcome === 'not_written'
          ? 'nothing was written; retry'
          : 'retry';
    super(`The database is unavailable (${cause.message}); ${what} in a few seconds`, {
      retryable: true,
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
      ...(outcome ? { outcome } : {}),
    });
    this.cause = cause;
  }
}

/**
 * SQLSTATEs of a dead or refused connection: class 08 (connection exception), 57P01 admin_shutdown
 * (pg_terminate_backend, a fast shutdown), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting
 * up, shutting down, recovering), 53300 too_many_connections.
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
/** Socket errors of a connection that cannot be made or was cut. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED', 'EAI_AGAIN']);
/** node-postgres's own words for a connection it lost or could not get in time. */
const DRIVER_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'Query read timeout',
];

/**
 * The connection failure behind `error` (drizzle wraps the driver's error in `cause`; Node's
 * connection attempts to several addresses in an AggregateError), or undefined for any other error:
 * a constraint, a syntax error, a bug. Only these are retryable as "the database is away".
 */
export function connectionFailureOf(error: unknown, depth = 0): Error | undefined {
  if (!(error instanceof Error) || depth > 5) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || SOCKET_CODES.has(code))) return error;
  if (DRIVER_MESSAGES.includes(error.message)) return error;
  if (error instanceof AggregateError && error.errors.some((inner) => connectionFailureOf(inner, depth + 1))) return error;
  return connectionFailureOf(error.cause, depth + 1);
}

/** `error` as a DatabaseUnreachableError when a lost connection caused it; undefined otherwise. */
export function databaseUnreachableOf(error: unknown): DatabaseUnreachableError | undefined {
  if (error instanceof DatabaseUnreachableError) return error;
  const failure = connectionFailureOf(error);
  return failure ? new DatabaseUnreachableError(failure) : undefined;
}
