import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { escapeIdentifier, type ClientBase } from 'pg';
import { connectionFailureOf } from '../common';
import { type PostgresEventStore, readEventsAfter, applyInlineProjections } from '../event-store';
import type { PgProjection } from './postgres-projection';
import { AsyncProjectionRunner, projectionStatusOf, recordFailure, recordRecovery } from './async-projection-runner';
import type { AsyncProjectionStatus, FeedStanding } from './async-projection-runner';

export interface PgAsyncProjectionRunnerOptions {
  /** Backoff cap between retries of a failing batch (SWITCHBOARD_PROJECTION_RETRY_MAX_MS on SQLite). */
  retryMaxMs?: number;
  /** Events read, applied and checkpointed per transaction. */
  batchSize?: number;
}

const DEFAULT_BATCH_SIZE = 500;
/**
 * While the database is away the batch is retried at least this often: the backoff is for a failing
 * cause (a bug in apply, a full disk), and a database that comes back should be caught up within a second.
 */
const CONNECTION_RETRY_MAX_MS = 1_000;

interface Feed extends FeedStanding {
  projection: PgProjection;
  draining?: Promise<void>;
  /** A wake came while draining: drain once more after this pass. */
  again: boolean;
}

/**
 * Locks the projection's checkpoint row (created at 0 the first time) and returns its position. The
 * lock is held to COMMIT, so two runners on one projection (two instances) take turns: each batch
 * starts from the checkpoint the other committed, and no event is applied twice.
 */
const LOCK_CHECKPOINT = `INSERT INTO projection_checkpoints (projection_name, position, updated_at) VALUES ($1, 0, now())
ON CONFLICT (projection_name) DO UPDATE SET projection_name = excluded.projection_name
RETURNING position`;
const WRITE_CHECKPOINT = 'UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE projection_name = $1';

/** Moves a checkpoint locked by `lockCheckpoint` in the same transaction. */
export async function moveCheckpoint(client: ClientBase, name: string, position: number): Promise<void> {
  await client.query(WRITE_CHECKPOINT, [name, position]);
}

export async function lockCheckpoint(client: ClientBase, name: string): Promise<number> {
  const { rows } = await client.query<{ position: string }>(LOCK_CHECKPOINT, [name]);
  return Number(rows[0].position);
}

/**
 * The PostgreSQL twin of AsyncProjectionRunner: feeds each projection from its checkpoint in
 * `projection_checkpoints`. One transaction per batch locks the checkpoint, reads the log after it,
 * applies the events and moves the checkpoint, so a crash never applies an event twice nor skips one.
 * Woken by the store (its commits, NOTIFY from any instance, the poll); a failed batch rolls back
 * and is retried from the checkpoint after a capped backoff, as often as it takes.
 * In the app (ProjectionsModule) it starts at bootstrap with the registry's async projections and
 * stops before the store closes; `projections` may be a function for that, read at `start()`.
 */
export class PgAsyncProjectionRunner extends AsyncProjectionRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(PgAsyncProjectionRunner.name);
  private readonly feeds = new Map<string, Feed>();
  private readonly retryMaxMs: number;
  private readonly batchSize: number;
  private stopWaking?: () => void;
  private stopped = false;

  constructor(
    private readonly store: PostgresEventStore,
    private readonly projections: readonly PgProjection[] | (() => readonly PgProjection[]),
    options: PgAsyncProjectionRunnerOptions = {},
  ) {
    super();
    this.retryMaxMs = options.retryMaxMs ?? 30_000;
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    if (typeof projections !== 'function') this.addFeeds(projections);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  /** Reads the checkpoints and the head, listens, and starts catching up. */
  async start(): Promise<void> {
    if (typeof this.projections === 'function') this.addFeeds(this.projections());
    const head = await this.store.headPosition();
    for (const feed of this.feeds.values()) {
      feed.position = await this.store.transaction((client) => lockCheckpoint(client, feed.projection.name));
      feed.catchUpTarget = head;
      this.logger.log({ projection: feed.projection.name, from: feed.position }, 'async projection starting');
    }
    this.stopWaking = await this.store.onCommitted(() => this.feeds.forEach((feed) => this.wake(feed)));
    this.feeds.forEach((feed) => this.wake(feed));
  }

  private addFeeds(projections: readonly PgProjection[]): void {
    for (const projection of projections) {
      if (this.feeds.has(projection.name)) throw new Error(`Projection ${projection.name} is registered twice`);
      this.feeds.set(projection.name, { projection, position: 0, catchUpTarget: 0, again: false });
    }
  }

  /** Stops waking and retrying; resolves once the batches under way are committed or rolled back. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopWaking?.();
    for (const feed of this.feeds.values()) clearTimeout(feed.retryTimer);
    await Promise.all([...this.feeds.values()].map((feed) => feed.draining ?? Promise.resolve()));
  }

  /** Last global position the projection has applied. */
  position(name: string): number {
    const feed = this.feeds.get(name);
    if (!feed) throw new Error(`Unknown projection ${name}`);
    return feed.position;
  }

  /** Every projection's state, position and lag; while failing, why and when it retries (the SQLite runner's shape). */
  async status(): Promise<AsyncProjectionStatus[]> {
    const head = await this.store.headPosition();
    return [...this.feeds.values()].map((feed) => projectionStatusOf(feed, head));
  }

  /**
   * Empties the projection's tables and sets its checkpoint to 0 in one transaction (under the
   * checkpoint's lock, so no batch of any instance interleaves), then replays the log into them.
   */
  async rebuild(name: string): Promise<void> {
    const feed = this.feeds.get(name);
    if (!feed) throw new Error(`Unknown projection ${name}`);
    await feed.draining;
    await this.store.transaction(async (client) => {
      await lockCheckpoint(client, name);
      if (feed.projection.tables.length > 0) await client.query(`TRUNCATE ${feed.projection.tables.map(escapeIdentifier).join(', ')}`);
      await client.query(WRITE_CHECKPOINT, [name, 0]);
      // Before COMMIT: a batch waiting at the lock can only report its position after this.
      feed.position = 0;
      feed.catchUpTarget = await this.store.headPosition();
    });
    this.logger.log({ projection: name, target: feed.catchUpTarget }, 'async projection rebuilding');
    this.wake(feed);
  }

  private wake(feed: Feed): void {
    // While a retry is scheduled the feed waits for it: wakes would only hammer a failing cause.
    if (this.stopped || feed.retryTimer) return;
    if (feed.draining) {
      feed.again = true;
      return;
    }
    feed.again = false;
    feed.draining = this.drain(feed).finally(() => {
      feed.draining = undefined;
      if (feed.again) this.wake(feed);
    });
  }

  /** Batches until the log is read to its end; a failure stops the pass and schedules the retry. */
  private async drain(feed: Feed): Promise<void> {
    const { name } = feed.projection;
    try {
      for (;;) {
        const { position, read } = await this.store.transaction(async (client) => {
          const checkpoint = await lockCheckpoint(client, name);
          const events = await readEventsAfter(client, checkpoint, this.batchSize);
          if (events.length === 0) return { position: checkpoint, read: 0 };
          await applyInlineProjections(client, [feed.projection], events);
          const last = events[events.length - 1].globalPosition;
          await client.query(WRITE_CHECKPOINT, [name, last]);
          return { position: last, read: events.length };
        });
        feed.position = position;
        if (feed.failure) this.recovered(feed);
        if (read < this.batchSize || this.stopped) return;
      }
    } catch (error) {
      this.fail(feed, error);
    }
  }

  /** Stop rather than skip: the batch rolled back, the checkpoint stays before it; retry after the backoff. */
  private fail(feed: Feed, error: unknown): void {
    feed.again = false;
    if (this.stopped) return;
    const cap = connectionFailureOf(error) ? Math.min(this.retryMaxMs, CONNECTION_RETRY_MAX_MS) : this.retryMaxMs;
    const delay = recordFailure(feed, error, cap, this.logger);
    feed.retryTimer = setTimeout(() => {
      feed.retryTimer = undefined;
      this.wake(feed);
    }, delay);
    feed.retryTimer.unref();
  }

  private recovered(feed: Feed): void {
    recordRecovery(feed, this.logger);
  }
}
