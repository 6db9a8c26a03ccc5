import { validateAppendMany, withActor } from './event-store';
import { AppendFailedError } from './event-store.errors';
import type { AppendOptions, AppendResult, StreamAppend } from './event-store.types';
import type { FlushScheduler } from './flush-scheduler';

/** One queued request: one stream append, or several that commit or fail together. */
export interface PendingAppend {
  parts: StreamAppend[];
  resolve(results: AppendResult[]): void;
  reject(error: unknown): void;
}

/** The part of a store that appends go through before its own commit. */
export interface AppendQueue {
  readonly closed: boolean;
  readonly pending: PendingAppend[];
  readonly flushes: FlushScheduler;
}

/**
 * What `appendMany` does on both stores before each commits its own way: checks the parts, stamps the
 * acting actor on them, and queues them for a flush within `maxDelayMs` (at once by default); a store
 * that is shut down refuses. Resolves when the store's flush commits the request, or rejects with why not.
 */
export function queueAppendMany(queue: AppendQueue, asked: StreamAppend[], options: AppendOptions): Promise<AppendResult[]> {
  try {
    validateAppendMany(asked);
  } catch (error) {
    return Promise.reject(error);
  }
  const parts = withActor(asked);
  if (queue.closed) return Promise.reject(new AppendFailedError('The event store is shut down'));
  return new Promise<AppendResult[]>((resolve, reject) => {
    queue.pending.push({ parts, resolve, reject });
    queue.flushes.schedule(options.maxDelayMs ?? 0);
  });
}
