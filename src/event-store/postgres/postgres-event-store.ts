import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DatabaseError, escapeLiteral, type Pool, type PoolClient } from 'pg';
import { Observable, Subject } from 'rxjs';
import { connectionFailureOf, DatabaseUnreachableError } from '../../common';
import { migratePostgres, createPostgresPool } from '../../database';
import { type CommitRecord, EventStore } from '../event-store';
import { AppendFailedError } from '../event-store.errors';
import type { AppendOptions, AppendResult, StoredEvent, StreamAppend, StreamsRead } from '../event-store.types';
import { FlushScheduler } from '../flush-scheduler';
import { type PendingAppend, queueAppendMany } from '../append-queue';
import { applyInlineProjections, type PostgresInlineProjection } from '../inline-projection-hook';
import { commitPlan, planPredictedGroup, planRequest, type KnownStream, type PlannedPart, type RequestPlan } from './append-plan';
import { GROUP_START, LOCKED_RESULT_INDEX, lockAndReadVersionsSql, lockAndWritePartsSql, readVersionsSql, writePartsSql } from './append-sql';
import {
  describeFailure,
  EVENT_COLUMNS,
  type EventRow,
  eventsOf,
  isStreamMoved,
  type PositionRow,
  readEventsAfter,
  statementResults,
  toResults,
  toStoredEvent,
} from './postgres-log-rows';
import { EVENTS_CHANNEL, PostgresLogTail } from './postgres-log-tail';

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

/**
 * Every appending transaction takes this transaction-level advisory lock first. Positions come from
 * an identity sequence, and sequence values are handed out at INSERT, not at COMMIT: without the
 * lock, a transaction holding position 7 can commit after one holding 8, and a reader that saw 8
 * and trusts max(position) would never read 7. With it, appending transactions run one at a time,
 * so positions become visible in order (a rolled-back transaction leaves a gap that never fills,
 * which readers skip harmlessly). The group commit keeps the cost: one lock per group, not per append.
 */
export const APPEND_LOCK_KEY = 7_265_063_421_015_830_000n;

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
/**
 * `readStreams` in one statement whatever the reads' limits: each read (an element of the JSON
 * parameter, numbered from 1 by ORDINALITY) gets its own LATERAL subquery with its own LIMIT.
 */
const READ_STREAMS_SQL = `SELECT q.k, e.* FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS q(r, k)
CROSS JOIN LATERAL (
  SELECT ${EVENT_COLUMNS} FROM events
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
 * The tail (`PostgresLogTail`): `committed$` carries every event of the database, whichever instance appended it, once
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

  private readonly commitRecords = new Subject<CommitRecord>();
  private readonly tail: PostgresLogTail;
  private inline: readonly PostgresInlineProjection[] = [];

  /** Every event of the database once, in global order, as the tail reads it. Subscribing starts the tail. */
  readonly committed$: Observable<StoredEvent> = new Observable<StoredEvent>((subscriber) => {
    this.start().catch((error: unknown) => subscriber.error(error));
    return this.tail.events$.subscribe(subscriber);
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
    this.tail = new PostgresLogTail({
      pool: this.pool,
      logger: this.logger,
      instanceId: this.instanceId,
      pollIntervalMs: options.pollIntervalMs ?? 1000,
      headPosition: () => this.headPosition(),
    });
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
    return this.tail.start();
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
    return this.tail.addReader(wake);
  }

  /** Several streams atomically: every part's version is checked and all parts commit, or none. */
  appendMany(asked: StreamAppend[], options: AppendOptions = {}): Promise<AppendResult[]> {
    return queueAppendMany({ closed: this.closed, pending: this.pending, flushes: this.flushes }, asked, options);
  }

  async readStream(streamId: string, options: { fromVersion?: number; limit?: number } = {}): Promise<StoredEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      // LIMIT NULL is no limit, like SQLite's LIMIT -1.
      `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 AND stream_position >= $2 ORDER BY stream_position LIMIT $3`,
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
    await this.tail.close();
    this.commitRecords.complete();
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
    this.tail.wakeReaders();
    if (written.length === 0) {
      settle();
      return;
    }
    // The group's slot is free again; its appends resolve once the tail published their events.
    this.tail.offer(written, settle);
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
}
