import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client, DatabaseError, escapeLiteral, type ClientBase, type Pool, type PoolClient, type QueryResult } from 'pg';
import { Observable, Subject } from 'rxjs';
import { connectionFailureOf, DatabaseUnreachableError } from '../../common/database-unreachable.error';
import { migratePostgres } from '../../database/migrations';
import { createPostgresPool } from '../../database/postgres-pool';
import { asSystem } from '../../common/acting-actor';
import { type CommitRecord, EventStore, validateAppendMany, withActor } from '../event-store';
import { AppendFailedError, ExpectedVersionConflictError, InvalidAppendError } from '../event-store.errors';
import type { AppendOptions, AppendResult, EventMetadata, StoredEvent, StreamAppend, StreamsRead } from '../event-store.types';
import { FlushScheduler } from '../flush-scheduler';
import { applyInlineProjections, type PostgresInlineProjection } from '../inline-projection-hook';
import { commitPlan, planPredictedGroup, planRequest, type KnownStream, type PlannedPart, type RequestPlan } from './append-plan';
import {
  GROUP_START,
  LOCKED_RESULT_INDEX,
  lockAndReadVersionsSql,
  lockAndWritePartsSql,
  readVersionsSql,
  STREAM_MOVED,
  writePartsSql,
} from './append-sql';

export interface PostgresEventStoreOptions {
  /** A pool the caller owns (the app shares one with the read models): the store never ends it. */
  pool?: Pool;
  /** Without `pool`: the store opens a pool of its own on this URL, and ends it on close. */
  connectionString?: string;
  /** Connections of the store's own pool (the LISTEN connection is one more). */
  poolSize?: number;
  /** The tail also looks at the log this often, in case a notification was lost with its connection. */
  pollIntervalMs?: number;
  /**
   * Applied inside every append's transaction, before COMMIT (see PostgresInlineProjection), in this
   * order; more by `registerInline`. The app gives one: the projections' `InlineProjectionHook`.
   */
  inlineProjections?: readonly PostgresInlineProjection[];
}

interface PendingAppend {
  parts: StreamAppend[];
  resolve(results: AppendResult[]): void;
  reject(error: unknown): void;
}

type AppendOutcome = { ok: AppendResult[] } | { error: unknown };

/** How far a group got: once COMMIT is sent, a lost connection leaves its outcome unknown. */
interface GroupProgress {
  commitSent: boolean;
}

/** A group's place in the queue for the append lock: after `previous`; `locked` once it holds the lock (or gave up). */
interface LockTurn {
  previous: Promise<void>;
  locked(): void;
}

interface StreamVersionRow {
  stream_id: string;
  version: number;
}

/** An inline projection failed on the savepoint-free path: the group is replayed with a savepoint per request. */
class NeedsIsolation extends Error {}

/**
 * How a group is written: `predicted` in one round trip from guessed versions (planPredictedGroup),
 * `checked` after reading the versions under the lock, `isolated` likewise with a savepoint per request.
 */
type GroupMode = 'predicted' | 'checked' | 'isolated';

interface EventRow {
  global_position: string | number;
  event_id: string;
  stream_id: string;
  stream_position: number;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  recorded_at: Date;
}

/** An append's settlement, held until the tail has published its events. */
interface PublishWaiter {
  position: number;
  settle(): void;
}

/**
 * Every appending transaction takes this transaction-level advisory lock first. Positions come from
 * an identity sequence, and sequence values are handed out at INSERT, not at COMMIT: without the
 * lock, a transaction holding position 7 can commit after one holding 8, and a reader that saw 8
 * and trusts max(position) would never read 7. With it, appending transactions run one at a time,
 * so positions become visible in order (a rolled-back transaction leaves a gap that never fills,
 * which readers skip harmlessly). The group commit keeps the cost: one lock per group, not per append.
 */
export const APPEND_LOCK_KEY = 7_265_063_421_015_830_000n;
export const EVENTS_CHANNEL = 'switchboard_events';

const MAX_APPENDS_PER_COMMIT = 1024;
/**
 * Two groups at a time, but the next one asks for the append lock only once the one before holds it
 * (`lockTurn`): two requests sent on two connections reach the lock in no set order, and a later group
 * first would put appends made later (a CLI's records, nobody awaiting them) before earlier ones in
 * the log. A group known to hold the lock while it still works (reading versions, running inline
 * projections) lets the next one queue at the lock meanwhile; a predicted group's one round trip
 * returns only once committed, so predicted groups follow each other.
 */
const MAX_GROUPS_IN_FLIGHT = 2;
const READ_PAGE_SIZE = 500;
/** Streams whose last committed version the store remembers, for guessing `any` / `stream_exists` appends. */
const REMEMBERED_STREAMS = 10_000;
const COLUMNS = 'global_position, event_id, stream_id, stream_position, type, data, metadata, recorded_at';
/** The LISTEN connection's reconnect backoff: first try, then doubling up to the cap while the database stays away. */
const RELISTEN_FIRST_MS = 100;
const RELISTEN_MAX_MS = 5_000;

/**
 * `readStreams` in one statement whatever the reads' limits: each read (an element of the JSON
 * parameter, numbered from 1 by ORDINALITY) gets its own LATERAL subquery with its own LIMIT.
 */
const READ_STREAMS_SQL = `SELECT q.k, e.* FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS q(r, k)
CROSS JOIN LATERAL (
  SELECT ${COLUMNS} FROM events
  WHERE stream_id IN (SELECT jsonb_array_elements_text(q.r -> 'streams'))
    AND global_position > (q.r ->> 'after')::bigint
  ORDER BY global_position
  LIMIT (q.r ->> 'limit')::bigint
) AS e
ORDER BY q.k, e.global_position`;

/**
 * The event log on PostgreSQL (node-postgres), with the SQLite store's semantics and errors.
 *
 * Group commit: `append` only queues; every append queued by one turn of the event loop commits in
 * ONE transaction, and while it commits the next group gathers. Usually in one round trip: each
 * stream's version is guessed (the expected version, or the one this store last wrote) and the write
 * checks the guesses under the append lock (planPredictedGroup, writePartsSql). A wrong guess replays
 * the group checked: the versions are read under the lock and expected versions compared in memory,
 * so a conflicting request is refused without writing and the others go on; an appendMany is one
 * request, all of its parts or none. A database error on the group (a duplicate event id) replays it
 * with a savepoint per request, so that failure stays its own.
 *
 * The tail: `committed$` carries every event of the database, whichever instance appended it, once
 * and in global order. One reader per store follows the log after the last position it published,
 * woken by this store's commits, by NOTIFY from the other instances and by the poll, so a lost
 * notification costs a poll interval, never an event. This store's own group is published without
 * a read when it directly follows what the tail published (under the append lock nothing else can
 * sit between them). An append resolves only once its events are published, as on SQLite.
 * `subscribe` and `subscribeToStream` replay from the log, then follow the tail.
 */
export class PostgresEventStore extends EventStore {
  private readonly logger = new Logger(PostgresEventStore.name);
  private readonly pool: Pool;
  private readonly ownsPool: boolean;
  /** This store's NOTIFY payload: its own notifications need no read, its commits woke the tail already. */
  private readonly instanceId = randomUUID();
  private pending: PendingAppend[] = [];
  private readonly flushes = new FlushScheduler(() => {
    // At most MAX_GROUPS_IN_FLIGHT groups: what arrives meanwhile waits and forms the next group.
    if (this.inFlight.size < MAX_GROUPS_IN_FLIGHT) this.startCommit();
  });
  private readonly inFlight = new Set<Promise<void>>();
  /** Resolves once the last group started holds the append lock (or gave up): the next one queues behind it. */
  private lockTurn: Promise<void> = Promise.resolve();
  private closed = false;
  private commitCount = 0;
  private appendCount = 0;
  /** Last version this store committed or read per stream, oldest first: a guess, checked by every write. */
  private readonly streamVersions = new Map<string, number>();

  private readonly committed = new Subject<StoredEvent>();
  private readonly commitRecords = new Subject<CommitRecord>();
  /** Last global position `committed$` published; set from the head when the tail starts. */
  private tailPosition = 0;
  private tailStarted?: Promise<void>;
  private tailRunning = false;
  private tailReading = false;
  private tailAgain = false;
  private tailFailing = false;
  private waiters: PublishWaiter[] = [];

  private readonly wakers = new Set<() => void>();
  private listener?: Client;
  private listening?: Promise<void>;
  private relistenTimer?: NodeJS.Timeout;
  private relistenAttempts = 0;
  private pollTimer?: NodeJS.Timeout;
  private inline: readonly PostgresInlineProjection[] = [];

  /** Every event of the database once, in global order, as the tail reads it. Subscribing starts the tail. */
  readonly committed$: Observable<StoredEvent> = new Observable<StoredEvent>((subscriber) => {
    this.start().catch((error: unknown) => subscriber.error(error));
    return this.committed.subscribe(subscriber);
  });
  /** Every group commit (and failed commit) with its duration, for /metrics. */
  readonly commits$: Observable<CommitRecord> = this.commitRecords.asObservable();

  constructor(private readonly options: PostgresEventStoreOptions) {
    super();
    for (const projection of options.inlineProjections ?? []) this.registerInline(projection);
    if (options.pool) {
      this.pool = options.pool;
      this.ownsPool = false;
    } else {
      if (!options.connectionString) throw new Error('PostgresEventStore needs a pool or a connectionString');
      this.pool = createPostgresPool({ url: options.connectionString, size: options.poolSize ?? 10 }, (error) =>
        // A lost connection (server restart, pg_terminate_backend) must not crash the process; the next checkout reconnects.
        this.logger.warn({ err: error }, 'PostgreSQL connection lost'),
      );
      this.ownsPool = true;
    }
  }

  /** Applies pending migrations from migrations/postgres (drizzle's node-postgres migrator). */
  async migrate(migrationsFolder?: string): Promise<void> {
    await migratePostgres(this.pool, migrationsFolder);
  }

  /**
   * Starts the tail: reads the head (`committed$` carries what commits after it), LISTENs and polls.
   * The first append, subscription or `onCommitted` starts it too; the app starts it at boot so that
   * an unreachable database stops the start.
   */
  start(): Promise<void> {
    this.tailStarted ??= this.startTail().catch((error: unknown) => {
      this.tailStarted = undefined;
      throw error;
    });
    return this.tailStarted;
  }

  /**
   * Adds an inline projection. Before the first append only: a projection that joined later would
   * have missed the events before it, and its read model would never equal a fold of the log.
   */
  registerInline(projection: PostgresInlineProjection): void {
    if (this.appendCount > 0 || this.pending.length > 0 || this.inFlight.size > 0) {
      throw new Error(`Inline projection ${projection.name} must be registered before the first append`);
    }
    if (this.inline.some((p) => p.name === projection.name)) throw new Error(`Projection ${projection.name} is registered twice`);
    this.inline = [...this.inline, projection];
  }

  /** Runs `work` in one transaction on a pooled connection: COMMIT when it resolves, ROLLBACK when it throws. */
  async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A dead connection fails the ROLLBACK too (the server rolled the transaction back when it went).
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      // A client that failed is destroyed, not handed to the next caller.
      client.release(broken);
    }
  }

  /**
   * Calls `wake` whenever the log may have grown: a commit of this store, a NOTIFY from any instance,
   * the poll. Resolves once the tail runs (LISTEN in place), with the function that stops the calls.
   * Readers read the log from where they are on each call, so a lost wake costs a poll interval.
   */
  async onCommitted(wake: () => void): Promise<() => void> {
    await this.start();
    this.wakers.add(wake);
    return () => this.wakers.delete(wake);
  }

  /** Several streams atomically: every part's version is checked and all parts commit, or none. */
  appendMany(asked: StreamAppend[], options: AppendOptions = {}): Promise<AppendResult[]> {
    try {
      validateAppendMany(asked);
    } catch (error) {
      return Promise.reject(error);
    }
    const parts = withActor(asked);
    if (this.closed) return Promise.reject(new AppendFailedError('The event store is shut down'));
    return new Promise<AppendResult[]>((resolve, reject) => {
      this.pending.push({ parts, resolve, reject });
      this.flushes.schedule(options.maxDelayMs ?? 0);
    });
  }

  async readStream(streamId: string, options: { fromVersion?: number; limit?: number } = {}): Promise<StoredEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      // LIMIT NULL is no limit, like SQLite's LIMIT -1.
      `SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND stream_position >= $2 ORDER BY stream_position LIMIT $3`,
      [streamId, options.fromVersion ?? 1, options.limit ?? null],
    );
    return rows.map(toStoredEvent);
  }

  /** Events with a global position greater than `after`, in global order (a page of 500 unless `limit`). */
  readAll(options: { after?: number; limit?: number } = {}): Promise<StoredEvent[]> {
    return readEventsAfter(this.pool, options.after ?? 0, options.limit ?? READ_PAGE_SIZE);
  }

  /** For each read, the first `limit` events after `after` in any of its streams, in global order; one statement. */
  async readStreams(reads: readonly StreamsRead[]): Promise<StoredEvent[][]> {
    const results: StoredEvent[][] = reads.map(() => []);
    if (reads.length === 0) return results;
    const { rows } = await this.pool.query<EventRow & { k: string }>(READ_STREAMS_SQL, [
      JSON.stringify(reads.map((read) => ({ streams: read.streamIds, after: read.after, limit: read.limit }))),
    ]);
    for (const row of rows) results[Number(row.k) - 1].push(toStoredEvent(row));
    return results;
  }

  /** The stream's version (number of events), 0 when it does not exist. */
  async streamVersion(streamId: string): Promise<number> {
    const { rows } = await this.pool.query<{ version: number }>('SELECT version FROM streams WHERE stream_id = $1', [streamId]);
    return rows[0]?.version ?? 0;
  }

  /** Global position of the newest committed event, 0 for an empty log (safe to trust: see APPEND_LOCK_KEY). */
  async headPosition(): Promise<number> {
    const { rows } = await this.pool.query<{ head: string | number | null }>('SELECT max(global_position) AS head FROM events');
    return Number(rows[0].head ?? 0);
  }

  /**
   * Catch-up reads, once the tail runs: the tail publishes what commits after the head it read at
   * start, so a replay that ended before that read could miss what committed in between.
   */
  protected async catchUpPage(options: { after: number; limit: number }): Promise<StoredEvent[]> {
    await this.start();
    return this.readAll(options);
  }

  protected async catchUpStreamPage(streamId: string, options: { fromVersion: number; limit: number }): Promise<StoredEvent[]> {
    await this.start();
    return this.readStream(streamId, options);
  }

  /** Group-commit counters since start: appends per commit shows how much batching happens. */
  stats(): { commits: number; appends: number } {
    return { commits: this.commitCount, appends: this.appendCount };
  }

  /**
   * Commits whatever is queued and publishes it, refuses new appends, stops the tail and the LISTEN
   * connection, and ends the pool if it is the store's own.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.flushes.cancel();
    while (this.inFlight.size > 0 || this.pending.length > 0) {
      if (this.inFlight.size > 0) await Promise.all(this.inFlight);
      else this.startCommit();
    }
    this.closed = true;
    // Appends resolve once published: let the tail read them (it settles them anyway if it cannot).
    const last = Math.max(0, ...this.waiters.map((waiter) => waiter.position));
    if (last > 0) await new Promise<void>((resolve) => this.waiters.push({ position: last, settle: resolve }));
    this.tailRunning = false;
    this.stopPolling();
    this.wakers.clear();
    this.committed.complete();
    this.commitRecords.complete();
    clearTimeout(this.relistenTimer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    if (this.ownsPool) await this.pool.end();
  }

  /** Nest: before the pool closes (in onApplicationShutdown), nothing queued is dropped. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /** The inline projections with something to apply: an empty one would cost the group a round trip. */
  private inlineProjections(): readonly PostgresInlineProjection[] {
    return this.inline.some((projection) => projection.empty?.()) ? this.inline.filter((projection) => !projection.empty?.()) : this.inline;
  }

  private startCommit(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending.splice(0, MAX_APPENDS_PER_COMMIT);
    const previous = this.lockTurn;
    let locked!: () => void;
    this.lockTurn = new Promise<void>((resolve) => (locked = resolve));
    const group: Promise<void> = this.commit(batch, { previous, locked }).finally(() => {
      this.inFlight.delete(group);
      if (this.pending.length > 0 && !this.closed) this.startCommit();
    });
    this.inFlight.add(group);
  }

  private async commit(batch: PendingAppend[], turn: LockTurn): Promise<void> {
    let outcomes: AppendOutcome[];
    const started = performance.now();
    const progress: GroupProgress = { commitSent: false };
    try {
      await this.start();
      outcomes = await this.commitGroup(batch, turn, progress);
      this.commitCount += 1;
      this.appendCount += batch.length;
    } catch (error) {
      turn.locked(); // never took it: the next group need not wait for this one
      this.commitRecords.next({ appends: batch.length, refused: batch.length, durationMs: performance.now() - started, committed: false });
      // No COMMIT answer came back: nothing is acknowledged. A lost connection is the database being
      // away (503, retryable); if it went after COMMIT was sent, the group may have committed all the
      // same, and the caller is told the outcome is unknown (never that it failed for sure).
      const lost = connectionFailureOf(error);
      const failure = lost
        ? new DatabaseUnreachableError(lost, progress.commitSent ? 'unknown' : 'not_written')
        : new AppendFailedError(`The append could not be committed: ${(error as Error).message}`);
      if (lost) this.logger.warn({ err: error, appends: batch.length, commitSent: progress.commitSent }, 'group commit lost its connection');
      else this.logger.error({ err: error, appends: batch.length }, 'group commit failed; batch rolled back');
      batch.forEach((request) => request.reject(failure));
      return;
    }
    const refused = outcomes.filter((outcome) => !('ok' in outcome)).length;
    this.commitRecords.next({ appends: batch.length, refused, durationMs: performance.now() - started, committed: true });
    const settle = () => outcomes.forEach((outcome, i) => ('ok' in outcome ? batch[i].resolve(outcome.ok) : batch[i].reject(outcome.error)));
    const written = outcomes.flatMap((outcome) => ('ok' in outcome ? eventsOf(outcome.ok) : [])).sort((a, b) => a.globalPosition - b.globalPosition);
    this.wakers.forEach((wake) => wake());
    if (written.length === 0) {
      settle();
      return;
    }
    // The group's slot is free again; its appends resolve once the tail published their events.
    this.waiters.push({ position: written[written.length - 1].globalPosition, settle });
    this.offer(written);
  }

  /**
   * Predicted first (one round trip), when every stream's version can be guessed; a wrong guess
   * (STREAM_MOVED) replays the group checked, any other database error or a failing projection
   * replays it isolated, so that failure stays with the request that caused it. A replay goes back to
   * the savepoint after the lock (GROUP_START), which stays held: no later group commits before it.
   */
  private async commitGroup(batch: PendingAppend[], turn: LockTurn, progress: GroupProgress): Promise<AppendOutcome[]> {
    // The connection after the turn: a group holding one while it waits could starve the group before it of one.
    await turn.previous;
    const client = await this.pool.connect();
    let broken = false;
    try {
      const outcomes = await this.writeGroupWithFallbacks(client, batch, turn, progress);
      for (const outcome of outcomes)
        if ('ok' in outcome) for (const result of outcome.ok) this.rememberVersion(result.streamId, result.nextExpectedVersion);
      return outcomes;
    } catch (error) {
      broken = !(error instanceof DatabaseError);
      if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
      throw error;
    } finally {
      // Committed, rolled back or never locked: the next group goes on (a no-op when it already has).
      turn.locked();
      // A connection that failed mid-transaction is not handed to the next caller.
      client.release(broken);
    }
  }

  private async writeGroupWithFallbacks(client: PoolClient, batch: PendingAppend[], turn: LockTurn, progress: GroupProgress): Promise<AppendOutcome[]> {
    const streamIds = [...new Set(batch.flatMap((request) => request.parts.map((part) => part.streamId)))];
    let mode: GroupMode = 'checked';
    let versions: StreamVersionRow[];
    const predicted = planPredictedGroup(
      batch.map((request) => request.parts),
      (streamId) => this.streamVersions.get(streamId),
    );
    if (predicted) {
      try {
        return await this.writeGroup(client, batch, 'predicted', { predicted }, turn, progress);
      } catch (error) {
        if (!(error instanceof DatabaseError) && !(error instanceof NeedsIsolation)) throw error;
        // The write failed after the lock was granted (the lock itself failing fails this ROLLBACK TO and the group).
        turn.locked();
        await client.query(`ROLLBACK TO SAVEPOINT ${GROUP_START}`);
        if (!isStreamMoved(error)) mode = 'isolated';
      }
      versions = (await client.query<StreamVersionRow>(readVersionsSql(streamIds))).rows;
    } else {
      const opened = await statementResults(client, lockAndReadVersionsSql(APPEND_LOCK_KEY, streamIds));
      turn.locked();
      versions = opened[LOCKED_RESULT_INDEX].rows as StreamVersionRow[];
    }
    for (const row of versions) this.rememberVersion(row.stream_id, row.version);
    if (mode === 'checked') {
      try {
        return await this.writeGroup(client, batch, 'checked', { versions }, turn, progress);
      } catch (error) {
        if (!(error instanceof DatabaseError) && !(error instanceof NeedsIsolation)) throw error;
        await client.query(`ROLLBACK TO SAVEPOINT ${GROUP_START}`);
      }
    }
    return await this.writeGroup(client, batch, 'isolated', { versions }, turn, progress);
  }

  private rememberVersion(streamId: string, version: number): void {
    this.streamVersions.delete(streamId);
    this.streamVersions.set(streamId, version);
    if (this.streamVersions.size > REMEMBERED_STREAMS) this.streamVersions.delete(this.streamVersions.keys().next().value as string);
  }

  /**
   * One transaction. Predicted: BEGIN, the append lock, every accepted request's rows, NOTIFY and
   * COMMIT in one round trip (the write checks the guessed versions); the next group asks for the lock
   * once it is back. Checked: the versions were read under the lock first (writeGroupWithFallbacks),
   * then the rows, NOTIFY and COMMIT. Isolated, each request's rows go in a savepoint of their own, so
   * a database error stays with the request that caused it. Inline projections run after the rows are
   * written (they need the positions), which adds a round trip plus the projections' own; a
   * projection's failure is its request's failure.
   */
  private async writeGroup(
    client: PoolClient,
    batch: PendingAppend[],
    mode: GroupMode,
    from: { predicted: RequestPlan[] } | { versions: readonly StreamVersionRow[] },
    turn: LockTurn,
    progress: GroupProgress,
  ): Promise<AppendOutcome[]> {
    const inline = this.inlineProjections();
    const isolated = mode === 'isolated';
    const predicted = 'predicted' in from ? from.predicted : undefined;
    const known = new Map<string, KnownStream>('versions' in from ? from.versions.map((row) => [row.stream_id, { version: row.version }]) : []);
    const recordedAt = new Date().toISOString();

    const outcomes: AppendOutcome[] = [];
    const accepted: { index: number; parts: PlannedPart[] }[] = [];
    for (const [index, request] of batch.entries()) {
      const plan = predicted ? predicted[index] : planRequest(request.parts, known);
      if ('conflict' in plan) {
        outcomes[index] = { error: plan.conflict };
        continue;
      }
      if (!isolated) {
        commitPlan(plan, known);
        accepted.push({ index, parts: plan.parts });
        continue;
      }
      let results: AppendResult[];
      try {
        const release = inline.length > 0 ? '' : '; RELEASE SAVEPOINT append';
        const written = await statementResults(client, `SAVEPOINT append; ${writePartsSql(plan.parts, recordedAt)}${release}`);
        results = toResults(plan.parts, written[1].rows as PositionRow[], recordedAt);
      } catch (error) {
        if (!(error instanceof DatabaseError)) throw error;
        await client.query('ROLLBACK TO SAVEPOINT append');
        outcomes[index] = { error: await describeFailure(client, error, request.parts) };
        continue;
      }
      if (inline.length > 0) {
        try {
          await applyInlineProjections(client, inline, eventsOf(results));
          await client.query('RELEASE SAVEPOINT append');
        } catch (error) {
          // Whatever the projection threw is its request's error; a lost connection fails this ROLLBACK and the group.
          await client.query('ROLLBACK TO SAVEPOINT append');
          outcomes[index] = { error };
          continue;
        }
      }
      outcomes[index] = { ok: results };
      commitPlan(plan, known);
    }
    const anyWritten = isolated ? outcomes.some((outcome) => 'ok' in outcome) : accepted.length > 0;
    // NOTIFY is delivered at COMMIT to every instance's listener; it only says "read on", and who wrote.
    const finish = anyWritten ? `NOTIFY ${EVENTS_CHANNEL}, ${escapeLiteral(this.instanceId)}; COMMIT` : 'ROLLBACK';
    // From here on a lost connection may have lost only COMMIT's answer: the outcome is unknown.
    const sendingFinish = () => {
      progress.commitSent = anyWritten;
    };
    // Predicted, a request conflicts only with an accepted one: with none accepted nothing was sent.
    if (predicted && accepted.length === 0) return outcomes;
    if (isolated || accepted.length === 0) {
      sendingFinish();
      await client.query(finish);
      return outcomes;
    }
    const parts = accepted.flatMap((request) => request.parts);
    // Predicted, the write follows BEGIN, the lock and the savepoint in the same query.
    const write = predicted ? lockAndWritePartsSql(APPEND_LOCK_KEY, parts, recordedAt) : writePartsSql(parts, recordedAt);
    const writeIndex = predicted ? LOCKED_RESULT_INDEX : 0;
    let results: AppendResult[];
    if (inline.length === 0) {
      sendingFinish();
      const written = await statementResults(client, `${write}; ${finish}`);
      results = toResults(parts, written[writeIndex].rows as PositionRow[], recordedAt);
    } else {
      const written = await statementResults(client, write);
      results = toResults(parts, written[writeIndex].rows as PositionRow[], recordedAt);
      // The next group plans from these versions and queues at the lock while the projections run.
      for (const result of results) this.rememberVersion(result.streamId, result.nextExpectedVersion);
      turn.locked();
      try {
        await applyInlineProjections(client, inline, eventsOf(results));
      } catch (error) {
        // Which request's events made it fail is not known here: replay with a savepoint per request.
        if (error instanceof DatabaseError) throw error;
        throw new NeedsIsolation((error as Error)?.message ?? String(error));
      }
      sendingFinish();
      await client.query(finish);
    }
    let next = 0;
    for (const request of accepted) {
      outcomes[request.index] = { ok: results.slice(next, next + request.parts.length) };
      next += request.parts.length;
    }
    return outcomes;
  }

  /**
   * Reads the head once, then keeps the tail fed: the poll, and LISTEN (its failure fails this start;
   * the next start only retries LISTEN, the tail keeps its position).
   */
  private async startTail(): Promise<void> {
    if (!this.tailRunning) {
      this.tailPosition = await this.headPosition();
      this.tailRunning = true;
      this.startPolling();
    }
    await this.ensureListening();
  }

  /**
   * This store's own group, committed. It directly follows what the tail published (under the append
   * lock every smaller position is committed or rolled back for good, and nothing could commit
   * between), so it is published as it is; otherwise (other instances' events, a rolled-back gap, a
   * read under way) the tail reads the log.
   */
  private offer(events: readonly StoredEvent[]): void {
    if (events[events.length - 1].globalPosition <= this.tailPosition) {
      // A read (the poll, say) got there before this commit's answer did: published already.
      this.settlePublished();
      return;
    }
    if (!this.tailReading && events[0].globalPosition === this.tailPosition + 1) {
      this.publish(events);
      return;
    }
    this.wakeTail();
  }

  /** A wake for the tail and for `onCommitted`'s readers: a NOTIFY from another instance, the poll. */
  private wakeAll(): void {
    this.wakeTail();
    this.wakers.forEach((wake) => wake());
  }

  private wakeTail(): void {
    if (!this.tailRunning) return;
    if (this.tailReading) {
      this.tailAgain = true; // a wake while reading: read once more after this pass
      return;
    }
    this.tailReading = true;
    void this.readTail();
  }

  /**
   * Reads the log after the tail's position until a page comes back short, publishing each page.
   * `tailReading` is cleared in the same turn as the last `tailAgain` check: a wake in between would be lost.
   */
  private async readTail(): Promise<void> {
    try {
      do {
        this.tailAgain = false;
        for (;;) {
          const page = await readEventsAfter(this.pool, this.tailPosition, READ_PAGE_SIZE);
          const fresh = page.filter((event) => event.globalPosition > this.tailPosition);
          if (fresh.length > 0) this.publish(fresh);
          if (page.length < READ_PAGE_SIZE) break;
        }
      } while (this.tailAgain && this.tailRunning);
      if (this.tailFailing) this.logger.log({ position: this.tailPosition }, 'reading the log for committed$ works again');
      this.tailFailing = false;
    } catch (error) {
      // The next wake (at the latest the poll) reads again from the same position; said once per outage.
      if (!this.tailFailing)
        this.logger.warn({ err: error, position: this.tailPosition }, 'reading the log for committed$ failed; retrying at every wake');
      this.tailFailing = true;
      if (this.closed) {
        // Closing with the database gone: the appends are durable, resolve them unpublished.
        this.waiters.splice(0).forEach((waiter) => waiter.settle());
      }
    } finally {
      this.tailReading = false;
    }
  }

  /** Events in global order after the tail's position: to committed$, then the appends they settle. */
  private publish(events: readonly StoredEvent[]): void {
    // What reacts to a committed event does it as Switchboard, whichever request the tail read for.
    asSystem(() => {
      for (const event of events) {
        this.tailPosition = event.globalPosition;
        this.committed.next(event);
      }
    });
    this.settlePublished();
  }

  /** Settles the appends whose events the tail has published, in log order. */
  private settlePublished(): void {
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((waiter) => waiter.position <= this.tailPosition).sort((a, b) => a.position - b.position);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((waiter) => waiter.position > this.tailPosition);
    ready.forEach((waiter) => waiter.settle());
  }

  /** One LISTEN connection per store, reconnected when it drops; the poll covers the gap. */
  private ensureListening(): Promise<void> {
    this.listening ??= this.listen().catch((error: unknown) => {
      this.listening = undefined;
      throw error;
    });
    return this.listening;
  }

  private async listen(): Promise<void> {
    const client = new Client({ ...this.pool.options });
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.logger.warn({ err: error }, 'LISTEN connection lost; reconnecting, the poll reads meanwhile');
      this.listener = undefined;
      this.listening = undefined;
      client.end().catch(() => undefined);
      this.relisten();
    };
    // Listened to from the start: an 'error' without a listener would end the process.
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.payload !== this.instanceId) this.wakeAll();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
  }

  /**
   * LISTEN again after a backoff (100 ms, doubling to 5 s) for as long as the database stays away.
   * Once back, every reader is woken: NOTIFYs sent meanwhile were lost, so each reads on from its position.
   */
  private relisten(): void {
    if (this.closed || this.relistenTimer) return;
    const delay = Math.min(RELISTEN_MAX_MS, RELISTEN_FIRST_MS * 2 ** Math.min(this.relistenAttempts, 16));
    this.relistenAttempts += 1;
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = undefined;
      if (this.closed) return;
      this.ensureListening().then(
        () => {
          this.logger.log({ attempts: this.relistenAttempts }, 'LISTEN connection back; reading what was missed');
          this.relistenAttempts = 0;
          this.wakeAll();
        },
        (error: unknown) => {
          if (this.relistenAttempts === 1) this.logger.warn({ err: error }, 'LISTEN reconnect failed; retrying with backoff');
          this.relisten();
        },
      );
    }, delay);
    this.relistenTimer.unref();
  }

  private startPolling(): void {
    if (this.pollTimer || this.closed) return;
    this.pollTimer = setInterval(() => this.wakeAll(), this.options.pollIntervalMs ?? 1000);
    this.pollTimer.unref();
  }

  private stopPolling(): void {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }
}

interface PositionRow {
  global_position: string;
  event_id: string;
}

/** The planned events with the positions the database gave them, as append results. */
function toResults(parts: PlannedPart[], rows: PositionRow[], recordedAt: string): AppendResult[] {
  const positions = new Map(rows.map((row) => [row.event_id, Number(row.global_position)]));
  return parts.map((part) => ({
    streamId: part.streamId,
    nextExpectedVersion: part.nextExpectedVersion,
    events: part.events.map((event) => ({
      globalPosition: positions.get(event.eventId) as number,
      eventId: event.eventId,
      streamId: event.streamId,
      streamPosition: event.streamPosition,
      type: event.type,
      // The caller's objects, not copies, as the SQLite store hands them back.
      data: event.data,
      metadata: event.metadata,
      recordedAt,
    })),
  }));
}

/** Events after global position `after`, in global order, on `db`: the pool, or a transaction's connection. */
export async function readEventsAfter(db: Pool | ClientBase, after: number, limit: number): Promise<StoredEvent[]> {
  const { rows } = await db.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE global_position > $1 ORDER BY global_position LIMIT $2`, [after, limit]);
  return rows.map(toStoredEvent);
}

/** A group's (or request's) events in global order: the order appends wrote them. */
function eventsOf(results: readonly AppendResult[]): StoredEvent[] {
  return results.flatMap((result) => result.events);
}

/** What a request's own database error means to its caller, in the SQLite store's terms. */
async function describeFailure(client: PoolClient, error: DatabaseError, parts: StreamAppend[]): Promise<unknown> {
  if (error.code === '23505' && error.constraint === 'events_event_id_uq') {
    return new InvalidAppendError(`An event id is already in the log: ${error.detail ?? error.message}`);
  }
  if ((error.code === '23505' && error.constraint === 'events_stream_position_uq') || isStreamMoved(error)) {
    // A writer that does not take the append lock got in first; report the stream's real version.
    const part = parts.find((p) => error.detail?.includes(p.streamId)) ?? parts[0];
    const { rows } = await client.query<{ version: number }>('SELECT version FROM streams WHERE stream_id = $1', [part.streamId]);
    return new ExpectedVersionConflictError(part.streamId, part.expectedVersion, rows[0]?.version ?? 0);
  }
  if (error.code === '22P05') {
    // jsonb cannot hold \u0000 in a string; SQLite's TEXT can.
    return new InvalidAppendError(`Event data cannot be stored in PostgreSQL: ${error.message}`);
  }
  return error;
}

/** The write's version check failed: a stream is not at the version its events were numbered from. */
function isStreamMoved(error: unknown): boolean {
  return (
    error instanceof DatabaseError &&
    STREAM_MOVED.some(
      (moved) =>
        error.code === moved.code &&
        ('constraint' in moved ? error.constraint === moved.constraint : error.table === moved.table && error.column === moved.column),
    )
  );
}

function toStoredEvent(row: EventRow): StoredEvent {
  return {
    globalPosition: Number(row.global_position),
    eventId: row.event_id,
    streamId: row.stream_id,
    streamPosition: row.stream_position,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at.toISOString(),
  };
}

/**
 * The results of a simple query, one per statement: pg resolves a multi-statement query to an array
 * but a single statement to its one result, and types both as one result.
 */
async function statementResults(client: ClientBase, text: string): Promise<QueryResult[]> {
  const result: QueryResult | QueryResult[] = await client.query(text);
  return Array.isArray(result) ? result : [result];
}
