import { Inject, Injectable, Logger, type LoggerService, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Subscription } from 'rxjs';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { SqliteDatabase } from '../database/sqlite-database';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import type { StoredEvent } from '../event-store/event-store.types';
import { type Projection, projectionHandles, runProjectionSync } from '../event-store/projection';
import { ProjectionRegistry } from '../event-store/projection-registry';
import { readCheckpoint, writeCheckpoint } from './projection-checkpoints';

/**
 * Committed events gather this long before one transaction applies them: each transaction costs a
 * checkpoint read and write and, with synchronous=FULL, an fsync on the event loop. setImmediate made
 * it about one transaction per routed request under load (bench:dispatch).
 */
const BATCH_WINDOW_MS = 10;
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
  position: number;
  catchUpTarget: number;
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

/** Where one projection's feed stands; replaced piecemeal as it catches up, fails and retries. */
interface Feed {
  projection: Projection;
  position: number;
  /** The log's head when the feed (re)subscribed: below it, the feed is catching up. */
  catchUpTarget: number;
  subscription?: Subscription;
  batch: StoredEvent[];
  batchTimer?: NodeJS.Timeout;
  retryTimer?: NodeJS.Timeout;
  failure?: { error: string; since: Date; attempts: number; nextRetryAt: Date };
}

/**
 * Feeds each async projection from its checkpoint: catch-up, then live. The read-model writes and
 * the new checkpoint go in one transaction, so a crash never applies an event twice or skips one.
 * A failed batch rolls back with its transaction; the feed then resubscribes from its checkpoint after
 * a backoff, as often as it takes, so it catches up by itself once the cause is gone (space freed).
 */
@Injectable()
export class AsyncProjectionRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AsyncProjectionRunner.name);
  private readonly feeds = new Map<string, Feed>();
  private readonly retryMaxMs: number;
  private stopped = false;

  constructor(
    private readonly database: SqliteDatabase,
    private readonly store: SqliteEventStore,
    private readonly registry: ProjectionRegistry,
    @Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig,
  ) {
    this.retryMaxMs = config.resilience.projectionRetryMaxMs;
  }

  onApplicationBootstrap(): void {
    for (const projection of this.registry.async()) {
      const feed: Feed = { projection, position: 0, catchUpTarget: 0, batch: [] };
      this.feeds.set(projection.name, feed);
      this.start(feed);
    }
  }

  onModuleDestroy(): void {
    this.stopped = true;
    for (const feed of this.feeds.values()) {
      clearTimeout(feed.retryTimer);
      feed.subscription?.unsubscribe();
      // Gathered events are applied now, while the database is still open.
      if (feed.batch.length > 0) this.applyBatch(feed);
    }
  }

  /** Last global position the projection has applied (for health and tests). */
  position(name: string): number {
    return this.feeds.get(name)?.position ?? readCheckpoint(this.database.orm, name);
  }

  /** Every async projection's state, position and lag; while failing, why and when it retries. */
  status(): AsyncProjectionStatus[] {
    const head = this.store.headPositionNow();
    return [...this.feeds.values()].map((feed) => projectionStatusOf(feed, head));
  }

  private start(feed: Feed): void {
    const { name } = feed.projection;
    try {
      feed.position = readCheckpoint(this.database.orm, name);
      feed.catchUpTarget = this.store.headPositionNow();
    } catch (error) {
      this.fail(feed, error);
      return;
    }
    // A retry with nothing left to replay (a rebuild moved the checkpoint past the failing event) is healed.
    if (feed.failure && feed.position >= feed.catchUpTarget) this.recovered(feed);
    this.logger.log({ projection: name, from: feed.position, retry: feed.failure?.attempts }, 'async projection starting');
    feed.subscription = this.store.subscribe(feed.position).subscribe({
      next: (event) => {
        feed.batch.push(event);
        feed.batchTimer ??= setTimeout(() => this.applyBatch(feed), BATCH_WINDOW_MS);
      },
      error: (error: unknown) => this.fail(feed, error),
    });
  }

  private applyBatch(feed: Feed): void {
    clearTimeout(feed.batchTimer);
    feed.batchTimer = undefined;
    const events = feed.batch;
    feed.batch = [];
    if (events.length === 0) return;
    const { projection } = feed;
    try {
      feed.position = this.database.connection
        .transaction(() => {
          // Re-read inside the transaction: a rebuild in another process may have moved it past these events.
          const checkpoint = readCheckpoint(this.database.orm, projection.name);
          const fresh = events.filter((e) => e.globalPosition > checkpoint);
          if (fresh.length === 0) return checkpoint;
          for (const event of fresh) {
            if (projectionHandles(projection, event)) runProjectionSync(projection.apply(event, this.database.readModels));
          }
          const last = fresh[fresh.length - 1].globalPosition;
          writeCheckpoint(this.database.orm, projection.name, last);
          return last;
        })
        .immediate();
    } catch (error) {
      this.fail(feed, error);
      return;
    }
    if (feed.failure) this.recovered(feed);
  }

  /**
   * Stop rather than skip: the transaction rolled back, the checkpoint stays before the failing event,
   * and the feed resubscribes from it after the backoff, replaying from the log what it had gathered.
   */
  private fail(feed: Feed, error: unknown): void {
    feed.subscription?.unsubscribe();
    feed.subscription = undefined;
    clearTimeout(feed.batchTimer);
    feed.batchTimer = undefined;
    feed.batch = [];
    if (this.stopped) return;
    const delay = recordFailure(feed, error, this.retryMaxMs, this.logger);
    feed.retryTimer = setTimeout(() => {
      feed.retryTimer = undefined;
      if (!this.stopped) this.start(feed);
    }, delay);
    feed.retryTimer.unref();
  }

  private recovered(feed: Feed): void {
    recordRecovery(feed, this.logger);
  }
}
