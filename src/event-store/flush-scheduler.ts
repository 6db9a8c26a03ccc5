import { performance } from 'node:perf_hooks';
import { systemCallback } from '../common';

/**
 * When a store's queued appends are committed: both stores gather a group until the event loop's
 * check phase, so every append made by the callbacks of one loop iteration shares the commit. An
 * append that tolerates a delay (`maxDelayMs`, for records nobody awaits) waits up to that long for
 * company, unless an impatient append flushes it sooner; that is what lets one-message-per-loop-turn
 * traffic (JSON-RPC) share commits at all.
 */
export class FlushScheduler {
  private scheduled = false;
  private delayed?: NodeJS.Timeout;
  private delayedDue = 0;

  constructor(private readonly flush: () => void) {}

  schedule(maxDelayMs: number): void {
    if (this.scheduled) return;
    if (maxDelayMs > 0) {
      const due = performance.now() + maxDelayMs;
      if (this.delayed && this.delayedDue <= due) return;
      clearTimeout(this.delayed);
      this.delayedDue = due;
      // A commit (and what reacts to it on committed$) is Switchboard's, not the first appender's.
      this.delayed = setTimeout(
        systemCallback(() => this.run()),
        maxDelayMs,
      );
      return;
    }
    this.scheduled = true;
    setImmediate(systemCallback(() => this.run()));
  }

  /** Forgets a delayed flush (the store is closing and flushes itself). */
  cancel(): void {
    clearTimeout(this.delayed);
    this.delayed = undefined;
  }

  private run(): void {
    this.scheduled = false;
    this.cancel();
    this.flush();
  }
}
