import { FlushScheduler } from '../flush-scheduler';
import { Logger } from '@nestjs/common';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import * as path from 'node:path';
import { Client, DatabaseError, Pool, type ClientBase, type PoolClient, type QueryResult } from 'pg';
import { Observable } from 'rxjs';
import { defaultMigrationsFolder } from '../../database/migrations';
import { validateAppendMany } from '../event-store';
import { AppendFailedError, ExpectedVersionConflictError, InvalidAppendError } from '../event-store.errors';
import type { AppendOptions, AppendResult, EventMetadata, ExpectedVersion, NewEvent, StoredEvent, StreamAppend, StreamsRead } from '../event-store.types';
import { commitPlan, planRequest, type KnownStream, type PlannedPart } from './append-plan';
import { lockAndReadVersionsSql, writePartsSql } from './append-sql';
import { applyProjections, type PgProjection } from './pg-projection';

export interface PostgresEventStoreOptions {
  connectionString: string;
  /** Connections for appends and reads (the LISTEN connection is one more). */
  poolSize?: number;
  /** Subscribers also look at the log this often, in case a notification was lost with its connection. */
  pollIntervalMs?: number;
  /** Applied inside every append's transaction, before COMMIT (see PgProjection); more by `registerInline`. */
  inlineProjections?: readonly PgProjection[];
}

interface PendingAppend {
  parts: StreamAppend[];
  resolve(results: AppendResult[]): void;
  reject(error: unknown): void;
}

type AppendOutcome = { ok: AppendResult[] } | { error: unknown };

/** An inline projection failed on the savepoint-free path: the group is replayed with a savepoint per request. */
class NeedsIsolation extends Error {}

interface EventRow {
  global_position: string;
  event_id: string;
  stream_id: string;
  stream_position: number;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  recorded_at: Date;
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
/** Separate key: several instances starting at once apply the migrations one after the other. */
const MIGRATION_LOCK_KEY = 7_265_063_421_015_830_001n;
export const EVENTS_CHANNEL = 'switchboard_events';

const MAX_APPENDS_PER_COMMIT = 1024;
/**
 * Two groups at a time: while one writes and commits, the next has its connection, has sent BEGIN
 * and waits at the append lock, so it starts the moment the first commits instead of a round trip later.
 */
const MAX_GROUPS_IN_FLIGHT = 2;
const READ_PAGE_SIZE = 500;
const COLUMNS = 'global_position, event_id, stream_id, stream_position, type, data, metadata, recorded_at';

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
 * The event log on PostgreSQL (node-postgres), with the SQLite EventStore's semantics and errors.
 *
 * Group commit: `append` only queues; every append queued by one turn of the event loop commits in
 * ONE transaction, and while it commits the next group gathers. Expected versions are checked in
 * memory under the append lock against the versions read at the start of the transaction, so a
 * conflicting request is refused without writing and the others go on; an appendMany is one request,
 * all of its parts or none. A database error on the group (a duplicate event id) replays it with a
 * savepoint per request, so that failure stays its own.
 *
 * Subscribers read the log: replay from their position, then LISTEN/NOTIFY (or the poll) wakes them
 * to read on from where they are, so every instance's events reach them once, in global order.
 */
export class PostgresEventStore {
  private readonly logger = new Logger(PostgresEventStore.name);
  private readonly pool: Pool;
  private pending: PendingAppend[] = [];
  private readonly flushes = new FlushScheduler(() => {
    // At most MAX_GROUPS_IN_FLIGHT groups: what arrives meanwhile waits and forms the next group.
    if (this.inFlight.size < MAX_GROUPS_IN_FLIGHT) this.startCommit();
  });
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;
  private commitCount = 0;
  private appendCount = 0;

  private readonly wakers = new Set<() => void>();
  private listener?: Client;
  private listening?: Promise<void>;
  private pollTimer?: NodeJS.Timeout;
  private inline: readonly PgProjection[] = [];

  constructor(private readonly options: PostgresEventStoreOptions) {
    for (const projection of options.inlineProjections ?? []) this.registerInline(projection);
    this.pool = new Pool({ connectionString: options.connectionString, max: options.poolSize ?? 10 });
    // An idle client's error (server restart) must not crash the process; the next checkout reconnects.
    this.pool.on('error', (error) => this.logger.warn({ err: error }, 'idle PostgreSQL connection failed'));
  }

  /** Applies pending migrations from migrations/postgres (drizzle's node-postgres migrator). */
  async migrate(migrationsFolder = path.join(defaultMigrationsFolder(), 'postgres')): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
      try {
        await migrate(drizzle(client), { migrationsFolder });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
      }
    } finally {
      client.release();
    }
  }

  /**
   * Adds an inline projection. Before the first append only: a projection that joined later would
   * have missed the events before it, and its read model would never equal a fold of the log.
   */
  registerInline(projection: PgProjection): void {
    if (this.appendCount > 0 || this.pending.length > 0 || this.inFlight.size > 0) {
      throw new Error(`Inline projection ${projection.name} must be registered before the first append`);
    }
    if (this.inline.some((p) => p.name === projection.name)) throw new Error(`Projection ${projection.name} is registered twice`);
    this.inline = [...this.inline, projection];
  }

  /** Runs `work` in one transaction on a pooled connection: COMMIT when it resolves, ROLLBACK when it throws. */
  async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /**
   * Calls `wake` whenever the log may have grown: a commit of this store, a NOTIFY from any instance,
   * the poll. Resolves once LISTEN is in place, with the function that stops the calls. Readers read
   * the log from where they are on each call, so a lost wake costs a poll interval, never an event.
   */
  async onCommitted(wake: () => void): Promise<() => void> {
    const stop = () => {
      this.wakers.delete(wake);
      if (this.wakers.size === 0) this.stopPolling();
    };
    this.wakers.add(wake);
    try {
      await this.ensureListening();
    } catch (error) {
      stop();
      throw error;
    }
    return stop;
  }

  append(streamId: string, expectedVersion: ExpectedVersion, events: NewEvent[], options?: AppendOptions): Promise<AppendResult> {
    return this.appendMany([{ streamId, expectedVersion, events }], options).then(([result]) => result);
  }

  /** Several streams atomically: every part's version is checked and all parts commit, or none. */
  appendMany(parts: StreamAppend[], options: AppendOptions = {}): Promise<AppendResult[]> {
    try {
      validateAppendMany(parts);
    } catch (error) {
      return Promise.reject(error);
    }
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

  /** Events with a global position greater than `after`, in global order. */
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
    const { rows } = await this.pool.query<{ head: string | null }>('SELECT max(global_position) AS head FROM events');
    return Number(rows[0].head ?? 0);
  }

  /**
   * Catch-up then live: every event after global position `after`, each exactly once and in global
   * order, whichever instance appended it. LISTEN starts before the first read, so nothing committed
   * between the replay and the first notification is missed.
   */
  subscribe(after = 0): Observable<StoredEvent> {
    return new Observable<StoredEvent>((subscriber) => {
      let last = after;
      let reading = false;
      let readAgain = false;
      const readOn = async () => {
        if (reading) {
          readAgain = true; // a wake while reading: read once more after this pass
          return;
        }
        reading = true;
        try {
          do {
            readAgain = false;
            for (;;) {
              const page = await this.readAll({ after: last, limit: READ_PAGE_SIZE });
              for (const event of page) {
                if (subscriber.closed) return;
                last = event.globalPosition;
                subscriber.next(event);
              }
              if (page.length < READ_PAGE_SIZE) break;
            }
          } while (readAgain && !subscriber.closed);
        } catch (error) {
          subscriber.error(error);
        } finally {
          reading = false;
        }
      };
      const wake = () => void readOn();
      this.wakers.add(wake);
      this.ensureListening().then(wake, (error: unknown) => subscriber.error(error));
      return () => {
        this.wakers.delete(wake);
        if (this.wakers.size === 0) this.stopPolling();
      };
    });
  }

  /** Group-commit counters since start: appends per commit shows how much batching happens. */
  stats(): { commits: number; appends: number } {
    return { commits: this.commitCount, appends: this.appendCount };
  }

  /** Commits whatever is queued, refuses new appends, ends subscriptions' wake-ups and the connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.flushes.cancel();
    while (this.inFlight.size > 0 || this.pending.length > 0) {
      if (this.inFlight.size > 0) await Promise.all(this.inFlight);
      else this.startCommit();
    }
    this.closed = true;
    this.stopPolling();
    this.wakers.clear();
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.pool.end();
  }

  private startCommit(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending.splice(0, MAX_APPENDS_PER_COMMIT);
    const group: Promise<void> = this.commit(batch).finally(() => {
      this.inFlight.delete(group);
      if (this.pending.length > 0 && !this.closed) this.startCommit();
    });
    this.inFlight.add(group);
  }

  private async commit(batch: PendingAppend[]): Promise<void> {
    let outcomes: AppendOutcome[];
    try {
      outcomes = await this.commitGroup(batch);
      this.commitCount += 1;
      this.appendCount += batch.length;
    } catch (error) {
      // No COMMIT went through (or its answer was lost with the connection): nothing is acknowledged.
      this.logger.error({ err: error, appends: batch.length }, 'group commit failed; batch rolled back');
      const failure = new AppendFailedError(`The append could not be committed: ${(error as Error).message}`);
      batch.forEach((request) => request.reject(failure));
      return;
    }
    outcomes.forEach((outcome, i) => ('ok' in outcome ? batch[i].resolve(outcome.ok) : batch[i].reject(outcome.error)));
    this.wakeSubscribers();
  }

  private async commitGroup(batch: PendingAppend[]): Promise<AppendOutcome[]> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      try {
        return await this.writeGroup(client, batch, false);
      } catch (error) {
        if (!(error instanceof DatabaseError) && !(error instanceof NeedsIsolation)) throw error;
        await client.query('ROLLBACK');
        return await this.writeGroup(client, batch, true);
      }
    } catch (error) {
      broken = !(error instanceof DatabaseError);
      if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
      throw error;
    } finally {
      // A connection that failed mid-transaction is not handed to the next caller.
      client.release(broken);
    }
  }

  /**
   * One transaction in two round trips: BEGIN, the append lock and the group's stream versions; then
   * every accepted request's rows, NOTIFY and COMMIT (fast path). Isolated, each request's rows go in
   * a savepoint of their own, so a database error stays with the request that caused it. Inline
   * projections run after the rows are written (they need the positions), which makes the fast path
   * three round trips plus the projections' own; a projection's failure is its request's failure.
   */
  private async writeGroup(client: PoolClient, batch: PendingAppend[], isolated: boolean): Promise<AppendOutcome[]> {
    const streamIds = [...new Set(batch.flatMap((request) => request.parts.map((part) => part.streamId)))];
    const opened = (await client.query(lockAndReadVersionsSql(APPEND_LOCK_KEY, streamIds))) as unknown as QueryResult[];
    const versions = opened[opened.length - 1].rows as { stream_id: string; version: number }[];
    const known = new Map<string, KnownStream>(versions.map((row) => [row.stream_id, { version: row.version }]));
    const recordedAt = new Date().toISOString();

    const outcomes: AppendOutcome[] = [];
    const accepted: { index: number; parts: PlannedPart[] }[] = [];
    for (const [index, request] of batch.entries()) {
      const plan = planRequest(request.parts, known);
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
        const release = this.inline.length > 0 ? '' : '; RELEASE SAVEPOINT append';
        const written = (await client.query(`SAVEPOINT append; ${writePartsSql(plan.parts, recordedAt)}${release}`)) as unknown as QueryResult[];
        results = toResults(plan.parts, written[1].rows as PositionRow[], recordedAt);
      } catch (error) {
        if (!(error instanceof DatabaseError)) throw error;
        await client.query('ROLLBACK TO SAVEPOINT append');
        outcomes[index] = { error: await describeFailure(client, error, request.parts) };
        continue;
      }
      if (this.inline.length > 0) {
        try {
          await applyProjections(client, this.inline, eventsOf(results));
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
    // NOTIFY is delivered at COMMIT to every instance's listener; it only says "read on".
    const finish = anyWritten ? `NOTIFY ${EVENTS_CHANNEL}; COMMIT` : 'ROLLBACK';
    if (isolated || accepted.length === 0) {
      await client.query(finish);
      return outcomes;
    }
    const parts = accepted.flatMap((request) => request.parts);
    let results: AppendResult[];
    if (this.inline.length === 0) {
      const written = (await client.query(`${writePartsSql(parts, recordedAt)}; ${finish}`)) as unknown as QueryResult[];
      results = toResults(parts, written[0].rows as PositionRow[], recordedAt);
    } else {
      const written = await client.query<PositionRow>(writePartsSql(parts, recordedAt));
      results = toResults(parts, written.rows, recordedAt);
      try {
        await applyProjections(client, this.inline, eventsOf(results));
      } catch (error) {
        // Which request's events made it fail is not known here: replay with a savepoint per request.
        if (error instanceof DatabaseError) throw error;
        throw new NeedsIsolation((error as Error)?.message ?? String(error));
      }
      await client.query(finish);
    }
    let next = 0;
    for (const request of accepted) {
      outcomes[request.index] = { ok: results.slice(next, next + request.parts.length) };
      next += request.parts.length;
    }
    return outcomes;
  }

  private wakeSubscribers(): void {
    this.wakers.forEach((wake) => wake());
  }

  /** One LISTEN connection per store, reconnected when it drops; the poll covers the gap. */
  private ensureListening(): Promise<void> {
    this.startPolling();
    this.listening ??= this.listen().catch((error: unknown) => {
      this.listening = undefined;
      throw error;
    });
    return this.listening;
  }

  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.options.connectionString });
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.logger.warn({ err: error }, 'LISTEN connection lost; reconnecting, the poll reads meanwhile');
      this.listener = undefined;
      this.listening = undefined;
      client.end().catch(() => undefined);
      if (!this.closed && this.wakers.size > 0) {
        setTimeout(() => {
          if (!this.closed && this.wakers.size > 0)
            this.ensureListening().then(
              () => this.wakeSubscribers(),
              () => undefined,
            );
        }, 100).unref();
      }
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', () => this.wakeSubscribers());
    await client.connect();
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    this.listener = client;
  }

  private startPolling(): void {
    if (this.pollTimer || this.closed) return;
    this.pollTimer = setInterval(() => this.wakeSubscribers(), this.options.pollIntervalMs ?? 1000);
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
  if (error.code === '23505' && error.constraint === 'events_stream_position_uq') {
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
