import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { Observable, Subject } from 'rxjs';
import { v7 as uuidv7 } from 'uuid';
import { FlushScheduler } from '../flush-scheduler';
import { type PendingAppend, queueAppendMany } from '../append-queue';
import { byLimit, KeyedBatch, SqliteDatabase } from '../../database';
import { type CommitRecord, EventStore, matchesExpectedVersion } from '../event-store';
import { AppendFailedError, ExpectedVersionConflictError, InvalidAppendError } from '../event-store.errors';
import type { AppendOptions, AppendResult, EventMetadata, StoredEvent, StreamAppend, StreamsRead } from '../event-store.types';
import { InlineProjectionHook } from '../inline-projection-hook';

type AppendOutcome = { ok: AppendResult[] } | { error: unknown };

/** A committed group whose appends are told (and whose events published) once the commit is durable. */
interface UnsyncedGroup {
  batch: PendingAppend[];
  outcomes: AppendOutcome[];
}

/**
 * What writing one request or one stream did: its results, or the version conflict that stopped it.
 * `afterWrite` says something was written before the conflict was found, so only a rollback undoes it.
 */
type WriteAttempt<T> = { ok: T } | { conflict: ExpectedVersionConflictError; afterWrite: boolean };

export interface EventRow {
  global_position: number;
  event_id: string;
  stream_id: string;
  stream_position: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

/** Bounds one group-commit transaction so a burst cannot hold the write lock for long. */
const MAX_APPENDS_PER_COMMIT = 1024;
const READ_PAGE_SIZE = 500;

/**
 * The event log on SQLite.
 *
 * Group commit: `append` only queues; the queue is flushed on the next turn of the event loop in
 * ONE `BEGIN IMMEDIATE` transaction, so every append that arrived meanwhile shares one commit.
 * Each append runs in its own savepoint inside it: a version conflict or a failing inline projection
 * rolls back that append alone. With synchronous=FULL the commit is made durable off the event loop
 * (`SqliteDatabase.durable()`, an fdatasync of the WAL on libuv's thread pool, shared by the groups that
 * committed meanwhile); only then are the events published to `committed$` in global order and the
 * promises settled. Nothing waits on the loop for a disk.
 */
@Injectable()
export class SqliteEventStore extends EventStore implements BeforeApplicationShutdown {
  private readonly logger = new Logger(SqliteEventStore.name);
  private readonly committed = new Subject<StoredEvent>();
  private readonly commitRecords = new Subject<CommitRecord>();
  private pending: PendingAppend[] = [];
  /** Committed groups waiting for their sync, oldest first. */
  private readonly unsynced: UnsyncedGroup[] = [];
  private readonly flushes = new FlushScheduler(() => {
    this.flush();
    if (this.pending.length > 0) this.flushes.schedule(0);
  });
  private closed = false;
  private commitCount = 0;
  private appendCount = 0;

  private readonly db: Database.Database;
  private readonly statements: ReturnType<SqliteEventStore['prepareStatements']>;
  private readonly streamsBatch: KeyedBatch<StreamsRead, EventRow>;
  private readonly commitBatch: Database.Transaction<(batch: PendingAppend[], isolated: boolean) => AppendOutcome[]>;
  private readonly appendOne: Database.Transaction<(request: PendingAppend) => AppendResult[]>;

  /** Every event once, in global order, right after its transaction committed. Live only: see `subscribe`. */
  readonly committed$: Observable<StoredEvent> = this.committed.asObservable();
  /** Every group commit (and failed commit) with its duration, for /metrics. */
  readonly commits$: Observable<CommitRecord> = this.commitRecords.asObservable();

  constructor(
    private readonly database: SqliteDatabase,
    private readonly projections: InlineProjectionHook,
  ) {
    super();
    this.db = database.connection;
    this.statements = this.prepareStatements();
    // Each read's rows come from a correlated subquery with its own LIMIT, so one read's streams
    // cannot crowd out another's; SQLite's LIMIT cannot name a column, hence one LIMIT per statement.
    this.streamsBatch = new KeyedBatch(
      this.db,
      `SELECT q.key AS k, e.* FROM json_each(?) AS q, events AS e
       WHERE e.global_position IN (SELECT x.global_position FROM events AS x
                                   WHERE x.stream_id IN (SELECT value FROM json_each(q.value ->> '$.streams'))
                                     AND x.global_position > q.value ->> '$.after'
                                   ORDER BY x.global_position LIMIT ?)`,
      (read) => ({ streams: JSON.stringify(read.streamIds), after: read.after }),
    );
    // In its own savepoint: throwing, the conflict included, rolls back this request alone.
    this.appendOne = this.db.transaction((request: PendingAppend) => {
      const attempt = this.writeAppend(request);
      if ('conflict' in attempt) throw attempt.conflict;
      return attempt.ok;
    });
    this.commitBatch = this.db.transaction((batch: PendingAppend[], isolated: boolean) =>
      batch.map((request) => (isolated ? this.commitIsolated(request) : this.commitUnisolated(request))),
    );
  }

  /**
   * Appends to several streams atomically: every part's version is checked and either all parts are
   * committed or none (an import of many agents, say, is never half-done).
   */
  appendMany(asked: StreamAppend[], options: AppendOptions = {}): Promise<AppendResult[]> {
    return queueAppendMany({ closed: this.closed, pending: this.pending, flushes: this.flushes }, asked, options);
  }

  readStream(streamId: string, options: { fromVersion?: number; limit?: number } = {}): Promise<StoredEvent[]> {
    return settle(() => this.readStreamNow(streamId, options));
  }

  readAll(options: { after?: number; limit?: number } = {}): Promise<StoredEvent[]> {
    return settle(() => this.readAllNow(options));
  }

  readStreams(reads: readonly StreamsRead[]): Promise<StoredEvent[][]> {
    return settle(() => this.readStreamsNow(reads));
  }

  streamVersion(streamId: string): Promise<number> {
    return settle(() => this.streamVersionNow(streamId));
  }

  headPosition(): Promise<number> {
    return settle(() => this.headPositionNow());
  }

  /**
   * The synchronous reads behind the port's: for SQLite-only code that runs inside a better-sqlite3
   * transaction (the async projection runner, rebuilds, maintenance commands).
   */
  readStreamNow(streamId: string, options: { fromVersion?: number; limit?: number } = {}): StoredEvent[] {
    const rows = this.statements.readStream.all(streamId, options.fromVersion ?? 1, options.limit ?? -1) as EventRow[];
    return rows.map(toStoredEvent);
  }

  /** Events with a global position greater than `after`, in global order. */
  readAllNow(options: { after?: number; limit?: number } = {}): StoredEvent[] {
    const rows = this.statements.readAll.all(options.after ?? 0, options.limit ?? READ_PAGE_SIZE) as EventRow[];
    return rows.map(toStoredEvent);
  }

  /** One statement per distinct `limit` among the reads (a loader's batch usually has one). */
  readStreamsNow(reads: readonly StreamsRead[]): StoredEvent[][] {
    const results: StoredEvent[][] = reads.map(() => []);
    for (const { limit, indexes } of byLimit(reads, (read) => read.limit)) {
      const grouped = this.streamsBatch.run(
        indexes.map((i) => reads[i]),
        limit,
      );
      indexes.forEach((index, j) => {
        results[index] = grouped[j].map(toStoredEvent).sort((a, b) => a.globalPosition - b.globalPosition);
      });
    }
    return results;
  }

  streamVersionNow(streamId: string): number {
    const row = this.statements.streamVersion.get(streamId) as { version: number } | undefined;
    return row?.version ?? 0;
  }

  headPositionNow(): number {
    const row = this.statements.head.get() as { head: number | null };
    return row.head ?? 0;
  }

  /**
   * Synchronous: the page and the subscription to live events are taken in the same turn of the event loop.
   * It stops before this store's first event that is committed but not durable yet: that one and what follows
   * come live, once synced (a subscriber never sees what a power loss could take back).
   */
  protected catchUpPage(options: { after: number; limit: number }): StoredEvent[] {
    return beforeUnsynced(this.readAllNow(options), this.firstUnsyncedPosition());
  }

  protected catchUpStreamPage(streamId: string, options: { fromVersion: number; limit: number }): StoredEvent[] {
    return beforeUnsynced(this.readStreamNow(streamId, options), this.firstUnsyncedPosition());
  }

  /** The global position of the oldest event of a group waiting for its sync; Infinity when none waits. */
  private firstUnsyncedPosition(): number {
    for (const { outcomes } of this.unsynced) {
      for (const outcome of outcomes) if ('ok' in outcome && outcome.ok[0]?.events[0]) return outcome.ok[0].events[0].globalPosition;
    }
    return Infinity;
  }

  /** Group-commit counters since start: appends per commit shows how much batching happens. */
  stats(): { commits: number; appends: number } {
    return { commits: this.commitCount, appends: this.appendCount };
  }

  /**
   * Commits whatever is queued and syncs it, then refuses new appends. Called on shutdown before the DB
   * closes; the appends' promises settle on the next turn of the loop.
   */
  flushAndClose(): void {
    this.flushes.cancel();
    while (this.pending.length > 0) this.flush();
    this.database.commitSync.durableNow();
    this.unsynced.splice(0).forEach((group) => this.settle(group));
    this.closed = true;
    this.committed.complete();
    this.commitRecords.complete();
  }

  /** Before the database closes (it closes in onApplicationShutdown): nothing queued is dropped. */
  beforeApplicationShutdown(): void {
    if (!this.closed) this.flushAndClose();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending.splice(0, MAX_APPENDS_PER_COMMIT);
    let outcomes: AppendOutcome[];
    const started = performance.now();
    try {
      outcomes = this.commitGroup(batch);
      this.commitCount += 1;
      this.appendCount += batch.length;
    } catch (error) {
      this.commitRecords.next({ appends: batch.length, refused: batch.length, durationMs: performance.now() - started, committed: false });
      // COMMIT itself failed: SQLite rolled the whole transaction back, nothing of the batch is stored.
      this.logger.error({ err: error, appends: batch.length }, 'group commit failed; batch rolled back');
      const failure = new AppendFailedError(`The append could not be committed: ${(error as Error).message}`);
      batch.forEach((request) => request.reject(failure));
      return;
    }
    const refused = outcomes.filter((outcome) => !('ok' in outcome)).length;
    this.commitRecords.next({ appends: batch.length, refused, durationMs: performance.now() - started, committed: true });
    if (refused === batch.length) {
      this.settle({ batch, outcomes }); // nothing was written: nothing to wait for
      return;
    }
    // Acknowledged (and published) once the commit is on the disk: see SqliteCommitSync.
    const group: UnsyncedGroup = { batch, outcomes };
    this.unsynced.push(group);
    this.database.durable().then(
      () => this.settleThrough(group),
      (error: unknown) => this.syncFailed(error),
    );
  }

  /** Groups settle in commit order: a sync that made `group` durable made every group before it durable. */
  private settleThrough(group: UnsyncedGroup): void {
    if (!this.unsynced.includes(group)) return; // settled already, by a shutdown's sync
    for (;;) {
      const next = this.unsynced.shift() as UnsyncedGroup;
      this.settle(next);
      if (next === group) return;
    }
  }

  /** A durable group: its events go out on committed$ in global order, then each caller hears of its own append. */
  private settle({ batch, outcomes }: UnsyncedGroup): void {
    outcomes.forEach((outcome, i) => {
      if ('ok' in outcome) {
        for (const result of outcome.ok) for (const event of result.events) this.committed.next(event);
        batch[i].resolve(outcome.ok);
      } else {
        batch[i].reject(outcome.error);
      }
    });
  }

  /**
   * The disk refused to sync the WAL: what the waiting groups wrote may or may not survive a power loss,
   * and after a failed fsync Linux may have dropped the pages, so no later sync can vouch for them. Their
   * appends fail and the store takes no more until a restart, when SQLite's recovery says what the log holds.
   */
  private syncFailed(error: unknown): void {
    const groups = this.unsynced.splice(0);
    if (groups.length === 0) return;
    this.logger.fatal({ err: error, groups: groups.length }, 'the WAL could not be synced; appends are refused until Switchboard restarts');
    this.closed = true;
    const failure = new AppendFailedError(`The append was written but could not be made durable (${(error as Error).message}); restart Switchboard`);
    for (const { batch, outcomes } of groups) outcomes.forEach((outcome, i) => batch[i].reject('ok' in outcome ? failure : outcome.error));
    // Nor are the queued ones committed: their frames would follow the unsynced ones in the WAL, and recovery
    // after a power loss stops at the first frame that is not there, so a later sync could not vouch for them.
    this.flushes.cancel();
    this.pending.splice(0).forEach((request) => request.reject(failure));
  }

  /**
   * Fast path: the whole group without savepoints (each costs a few microseconds per append). If an
   * append fails after it wrote something, the group is rolled back and replayed with one savepoint
   * per append, so that failure stays its own.
   */
  private commitGroup(batch: PendingAppend[]): AppendOutcome[] {
    try {
      return this.commitBatch.immediate(batch, false);
    } catch (error) {
      if (!(error instanceof NeedsIsolation)) throw error;
      return this.commitBatch.immediate(batch, true);
    }
  }

  /**
   * Savepoint-free: a conflict found before this request wrote anything is its own (there is nothing to
   * undo); any other failure rolls the group back to be replayed with savepoints.
   */
  private commitUnisolated(request: PendingAppend): AppendOutcome {
    let attempt: WriteAttempt<AppendResult[]>;
    try {
      attempt = this.writeAppend(request);
    } catch (error) {
      if (!this.db.inTransaction) throw error; // see commitIsolated
      throw new NeedsIsolation();
    }
    if ('ok' in attempt) return attempt;
    if (attempt.afterWrite) throw new NeedsIsolation();
    return { error: attempt.conflict };
  }

  /** In a savepoint: whatever this request fails with is rolled back and reported as its own. */
  private commitIsolated(request: PendingAppend): AppendOutcome {
    try {
      return { ok: this.appendOne(request) };
    } catch (error) {
      // SQLite itself rolled the whole transaction back (SQLITE_FULL, SQLITE_IOERR...): the savepoint
      // is gone and later appends would autocommit one by one. Fail the whole group instead.
      if (!this.db.inTransaction) throw error;
      return { error };
    }
  }

  /** One queued request, part by part; a conflict after an earlier part wrote is after a write. */
  private writeAppend(request: PendingAppend): WriteAttempt<AppendResult[]> {
    const results: AppendResult[] = [];
    for (const part of request.parts) {
      const attempt = this.writeStreamAppend(part);
      if ('conflict' in attempt) return { conflict: attempt.conflict, afterWrite: attempt.afterWrite || results.length > 0 };
      results.push(attempt.ok);
    }
    return { ok: results };
  }

  /** One stream: version check, stream row, events, inline projections. Other failures throw. */
  private writeStreamAppend(part: StreamAppend): WriteAttempt<AppendResult> {
    const { streamId, expectedVersion, events } = part;
    const row = this.statements.streamVersion.get(streamId) as { version: number } | undefined;
    const current = row?.version ?? 0;
    if (!matchesExpectedVersion(expectedVersion, current, row !== undefined)) {
      return { conflict: new ExpectedVersionConflictError(streamId, expectedVersion, current), afterWrite: false };
    }

    const recordedAt = new Date().toISOString();
    const nextVersion = current + events.length;
    if (row) this.statements.updateStream.run(nextVersion, recordedAt, streamId);
    else this.statements.insertStream.run(streamId, nextVersion, recordedAt, recordedAt);

    const stored: StoredEvent[] = [];
    for (const [i, event] of events.entries()) {
      const metadata: EventMetadata = event.metadata ?? {};
      // Time-ordered ids keep inserts into the event_id index at its right edge (fewer pages per commit).
      const eventId = event.eventId ?? uuidv7();
      const data = JSON.stringify(event.data);
      const metadataJson = JSON.stringify(metadata);
      const streamPosition = current + i + 1;
      let info: Database.RunResult;
      try {
        info = this.statements.insertEvent.run(eventId, streamId, streamPosition, event.type, data, metadataJson, recordedAt);
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && String(error).includes('event_id')) {
          throw new InvalidAppendError(`Event id ${eventId} is already in the log`);
        }
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
          // Another writer took this position between our read and our insert (another process); the
          // stream row is already written.
          return { conflict: new ExpectedVersionConflictError(streamId, expectedVersion, this.streamVersionNow(streamId)), afterWrite: true };
        }
        throw error;
      }
      stored.push({
        globalPosition: Number(info.lastInsertRowid),
        eventId,
        streamId,
        streamPosition,
        type: event.type,
        // The caller's objects, not copies: appended events are handed over and must not be mutated.
        data: event.data,
        metadata,
        recordedAt,
      });
    }

    this.projections.applySync(this.database.readModels, stored);
    return { ok: { streamId, nextExpectedVersion: nextVersion, events: stored } };
  }

  private prepareStatements() {
    const db = this.db;
    return {
      streamVersion: db.prepare('SELECT version FROM streams WHERE stream_id = ?'),
      insertStream: db.prepare('INSERT INTO streams (stream_id, version, created_at, updated_at) VALUES (?, ?, ?, ?)'),
      updateStream: db.prepare('UPDATE streams SET version = ?, updated_at = ? WHERE stream_id = ?'),
      insertEvent: db.prepare(
        `INSERT INTO events (event_id, stream_id, stream_position, type, data, metadata, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      readStream: db.prepare(`SELECT * FROM events WHERE stream_id = ? AND stream_position >= ? ORDER BY stream_position LIMIT ?`),
      readAll: db.prepare('SELECT * FROM events WHERE global_position > ? ORDER BY global_position LIMIT ?'),
      head: db.prepare('SELECT MAX(global_position) AS head FROM events'),
    };
  }
}

/** Rolls back the savepoint-free attempt of a group so it is replayed with savepoints; never leaves the store. */
class NeedsIsolation extends Error {}

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    globalPosition: row.global_position,
    eventId: row.event_id,
    streamId: row.stream_id,
    streamPosition: row.stream_position,
    type: row.type,
    data: JSON.parse(row.data) as Record<string, unknown>,
    metadata: JSON.parse(row.metadata) as EventMetadata,
    recordedAt: row.recorded_at,
  };
}

/** A page cut before `firstUnsynced`; a cut page comes back short, which ends a catch-up. */
function beforeUnsynced(page: StoredEvent[], firstUnsynced: number): StoredEvent[] {
  const cut = page.findIndex((event) => event.globalPosition >= firstUnsynced);
  return cut === -1 ? page : page.slice(0, cut);
}

/** A synchronous read as a promise: a failing read rejects instead of throwing at the caller. */
function settle<T>(read: () => T): Promise<T> {
  try {
    return Promise.resolve(read());
  } catch (error) {
    return Promise.reject(error);
  }
}
