import type { LoggerService } from '@nestjs/common';

/** The first retry after a failed batch; each further failure doubles it, up to SWITCHBOARD_PROJECTION_RETRY_MAX_MS. */
export const FIRST_RETRY_MS = 100;

/**
 * catching-up: replaying what the log held when it (re)started; live: applying events as they commit;
 * failing: its last batch failed (disk full, I/O error, a bug in apply) and a retry is scheduled.
 */
export type AsyncProjectionState = 'catching-up' | 'live' | 'failing';

/** One async projection as /health, readiness and metrics see it. */
export interface AsyncProjectionStatus {
  name: string;
  state: AsyncProjectionState;
  /** Last global position applied (its checkpoint). */
  position: number;
  /** Committed events it has not applied yet. */
  lag: number;
  /** Set while failing: the error of the last failed attempt, since when it fails, how often, the next try. */
  lastError?: string;
  failingSince?: string;
  failedAttempts?: number;
  nextRetryAt?: string;
}

/** Where a feed stands, as both runners (SQLite and PostgreSQL) keep it. */
export interface FeedStanding {
  projection: { name: string };
  /** Last global position applied, as its last committed checkpoint says. */
  position: number;
  /** The log's head when the feed (re)started or was rebuilt: below it, the feed is catching up. */
  catchUpTarget: number;
  /** The retry of a failed batch, waiting for its backoff. */
  retryTimer?: NodeJS.Timeout;
  failure?: { error: string; since: Date; attempts: number; nextRetryAt: Date };
}

/** A feed's status against the log's head: the one shape /health, readiness and metrics read. */
export function projectionStatusOf(feed: FeedStanding, head: number): AsyncProjectionStatus {
  const { failure } = feed;
  const state: AsyncProjectionState = failure ? 'failing' : feed.position < feed.catchUpTarget ? 'catching-up' : 'live';
  return {
    name: feed.projection.name,
    state,
    position: feed.position,
    lag: Math.max(0, head - feed.position),
    ...(failure
      ? {
          lastError: failure.error,
          failingSince: failure.since.toISOString(),
          failedAttempts: failure.attempts,
          nextRetryAt: failure.nextRetryAt.toISOString(),
        }
      : {}),
  };
}

/**
 * Records a failed batch on the feed (attempts, since when, the next try) and logs it: an error the
 * first time, a warning while it keeps failing. Returns how long to wait before the retry.
 */
export function recordFailure(feed: FeedStanding, error: unknown, retryMaxMs: number, logger: LoggerService): number {
  const attempts = (feed.failure?.attempts ?? 0) + 1;
  const delay = retryDelayMs(attempts, retryMaxMs);
  const message = (error as Error)?.message ?? String(error);
  feed.failure = { error: message, since: feed.failure?.since ?? new Date(), attempts, nextRetryAt: new Date(Date.now() + delay) };
  const context = { err: error, projection: feed.projection.name, position: feed.position, attempts, retryInMs: delay };
  if (attempts === 1) logger.error(context, 'async projection batch failed; retrying from its checkpoint');
  else logger.warn(context, 'async projection still failing; retrying from its checkpoint');
  return delay;
}

/** A batch went through after failures: clears the failure and says so. */
export function recordRecovery(feed: FeedStanding, logger: LoggerService): void {
  const { failure } = feed;
  feed.failure = undefined;
  logger.log(
    { projection: feed.projection.name, position: feed.position, failedAttempts: failure?.attempts, failingSince: failure?.since },
    'async projection recovered',
  );
}

/** Backoff after the `attempt`-th failure in a row (1-based): 100 ms, 200 ms, 400 ms... capped at `maxMs`. */
export function retryDelayMs(attempt: number, maxMs: number): number {
  return Math.min(maxMs, FIRST_RETRY_MS * 2 ** Math.min(attempt - 1, 30));
}

/**
 * The async projections' runner as the app sees it, whichever database holds them: each projection fed
 * from its checkpoint, applied and checkpointed in one transaction. The port /health, readiness and
 * metrics inject; `ProjectionsModule` binds it to `SqliteAsyncProjectionRunner` or `PgAsyncProjectionRunner`.
 */
export abstract class AsyncProjectionRunner {
  /** Last global position the projection has applied (for health and tests). */
  abstract position(name: string): number;
  /** Every async projection's state, position and lag; while failing, why and when it retries. */
  abstract status(): Promise<AsyncProjectionStatus[]>;
}
