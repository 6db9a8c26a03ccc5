import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Subscription } from 'rxjs';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { SqliteDatabase } from '../database';
import { SqliteEventStore, type StoredEvent, eventsFor } from '../event-store';
import { type Projection, runProjectionSync } from './projection';
import { ProjectionRegistry } from './projection-registry';
import { AsyncProjectionRunner, projectionStatusOf, recordFailure, recordRecovery } from './async-projection-runner';
import type { AsyncProjectionStatus, FeedStanding } from './async-projection-runner';
import { CheckpointStatements } from './projection-checkpoints';

/**
 * Committed events gather this long before one transaction applies them: each transaction costs a
 * checkpoint read and write. setImmediate made it about one transaction per routed request under load
 * (bench:dispatch).
 */
const BATCH_WINDOW_MS = 10;
/**
 * A batch is applied at once when it reaches this many events: a catch-up delivers a page per turn of
 * the loop, and ten pages gathered in one window made a transaction that held the loop for 300 ms.
 */
const MAX_BATCH_EVENTS = 500;

/** Where one projection's feed stands; replaced piecemeal as it catches up, fails and retries. */
interface Feed extends FeedStanding {
  projection: Projection;
  subscription?: Subscription;
  batch: StoredEvent[];
  batchTimer?: NodeJS.Timeout;
}

/**
 * Feeds each async projection from its checkpoint: catch-up, then live. The read-model writes and
 * the new checkpoint go in one transaction, so a crash never applies an event twice or skips one.
 * A failed batch rolls back with its transaction; the feed then resubscribes from its checkpoint after
 * a backoff, as often as it takes, so it catches up by itself once the cause is gone (space freed).
 */
@Injectable()
export class SqliteAsyncProjectionRunner extends AsyncProjectionRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SqliteAsyncProjectionRunner.name);
  private readonly feeds = new Map<string, Feed>();
  private readonly retryMaxMs: number;
  private readonly checkpoints: CheckpointStatements;
  private stopped = false;

  constructor(
    private readonly database: SqliteDatabase,
    private readonly store: SqliteEventStore,
    private readonly registry: ProjectionRegistry,
    @Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig,
  ) {
    super();
    this.retryMaxMs = config.resilience.projectionRetryMaxMs;
    this.checkpoints = new CheckpointStatements(database.orm);
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
    return this.feeds.get(name)?.position ?? this.checkpoints.position(name);
  }

  /** Every async projection's state, position and lag; while failing, why and when it retries. */
  status(): Promise<AsyncProjectionStatus[]> {
    try {
      const head = this.store.headPositionNow();
      return Promise.resolve([...this.feeds.values()].map((feed) => projectionStatusOf(feed, head)));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private start(feed: Feed): void {
    const { name } = feed.projection;
    try {
      feed.position = this.checkpoints.position(name);
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
        if (feed.batch.length >= MAX_BATCH_EVENTS) this.applyBatch(feed);
        else feed.batchTimer ??= setTimeout(() => this.applyBatch(feed), BATCH_WINDOW_MS);
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
      // The batch and its checkpoint can be derived again from the log: nothing awaits their sync (the next
      // append's sync covers them; a power loss before it loses the batch together with its checkpoint).
      feed.position = this.database.connection
        .transaction(() => {
          // Re-read inside the transaction: a rebuild in another process may have moved it past these events.
          const checkpoint = this.checkpoints.position(projection.name);
          const fresh = events.filter((e) => e.globalPosition > checkpoint);
          if (fresh.length === 0) return checkpoint;
          const handled = eventsFor(projection, fresh);
          if (handled.length > 0) runProjectionSync(projection.handle(handled, this.database.readModels));
          const last = fresh[fresh.length - 1].globalPosition;
          this.checkpoints.move(projection.name, last);
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
