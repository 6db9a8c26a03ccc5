import type { StoredEvent } from '../event-store.types';
import { importEvents } from './log-import';
import type { PostgresEventStore } from './postgres-event-store';

/** The log being copied: the SQLite EventStore's reads (synchronous there, so either kind is taken). */
export interface LogSource {
  readAll(options: { after?: number; limit?: number }): StoredEvent[] | Promise<StoredEvent[]>;
  headPosition(): number | Promise<number>;
}

export interface CopyProgress {
  copied: number;
  total: number;
}

export interface CopyLogOptions {
  /** Continue after the target's events when they are a prefix of the source; otherwise the target must be empty. */
  resume?: boolean;
  /** Events per transaction. */
  batchSize?: number;
  onProgress?(progress: CopyProgress): void;
}

export interface CopyLogResult {
  /** Events already in the target (resume), then copied by this run. */
  skipped: number;
  copied: number;
  head: number;
}

/** A refusal the user answers by changing the command: the message says what to do. */
export class CopyRefusedError extends Error {}

const DEFAULT_BATCH_SIZE = 1000;
const COMPARE_PAGE_SIZE = 1000;

/**
 * Copies the source's log into the PostgreSQL store in global order, `batchSize` events per
 * transaction (each under the append lock, all or nothing). An empty target is required, or with
 * `resume` a target whose log is a prefix of the source's (its head event is the source's event at
 * that position), which the copy continues after.
 */
export async function copyLog(source: LogSource, target: PostgresEventStore, options: CopyLogOptions = {}): Promise<CopyLogResult> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const targetHead = await target.headPosition();
  if (targetHead > 0) {
    if (!options.resume) {
      throw new CopyRefusedError(
        `the target log is not empty (head at position ${targetHead}); copy into an empty database, or add --resume to continue a copy that stopped`,
      );
    }
    const [atHead] = await source.readAll({ after: targetHead - 1, limit: 1 });
    const [targetEvent] = await target.readAll({ after: targetHead - 1, limit: 1 });
    if (atHead?.globalPosition !== targetHead || atHead.eventId !== targetEvent?.eventId) {
      const differs = await firstDifference(source, target);
      throw new CopyRefusedError(
        `the target log is not a prefix of the source: position ${differs} differs; copy into an empty database instead of resuming`,
      );
    }
  }
  // SQLite's positions are its rowids, never reused nor skipped: the head is the number of events.
  const total = await source.headPosition();
  const skipped = targetHead;
  let copied = 0;
  let after = targetHead;
  options.onProgress?.({ copied: skipped, total });
  for (;;) {
    const batch = await source.readAll({ after, limit: batchSize });
    if (batch.length === 0) break;
    await importEvents(target, after, batch);
    after = batch[batch.length - 1].globalPosition;
    copied += batch.length;
    // The source may grow while it is copied (a running service): the total follows.
    options.onProgress?.({ copied: skipped + copied, total: Math.max(total, skipped + copied) });
  }
  return { skipped, copied, head: after };
}

/** The first global position at which the two logs hold different events (or one has none). */
async function firstDifference(source: LogSource, target: PostgresEventStore): Promise<number> {
  let after = 0;
  for (;;) {
    const [ours, theirs] = await Promise.all([source.readAll({ after, limit: COMPARE_PAGE_SIZE }), target.readAll({ after, limit: COMPARE_PAGE_SIZE })]);
    const length = Math.max(ours.length, theirs.length);
    for (let i = 0; i < length; i++) {
      const [a, b] = [ours[i], theirs[i]];
      if (a?.globalPosition !== b?.globalPosition || a.eventId !== b.eventId)
        return Math.min(a?.globalPosition ?? Infinity, b?.globalPosition ?? Infinity);
    }
    if (length < COMPARE_PAGE_SIZE) return after + 1;
    after = ours[COMPARE_PAGE_SIZE - 1].globalPosition;
  }
}
