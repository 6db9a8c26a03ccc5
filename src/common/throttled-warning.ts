import type { LoggerService } from '@nestjs/common';

/**
 * A warning that can come in floods (a page refused in a loop, every request during a database
 * outage): the first `burst` of each window are logged one by one, the rest counted and summed up in
 * one line when the window turns, so the log stays readable and still says how many there were.
 */
export class ThrottledWarning {
  private windowStart = Number.NEGATIVE_INFINITY;
  private logged = 0;
  private suppressed = 0;

  constructor(
    private readonly logger: Pick<LoggerService, 'warn'>,
    /** The summary line's message, e.g. "more requests refused, not logged one by one". */
    private readonly summary: string,
    private readonly burst = 20,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  warn(fields: object, message: string): void {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) {
      if (this.suppressed > 0) this.logger.warn({ suppressed: this.suppressed, windowMs: this.windowMs }, this.summary);
      this.windowStart = now;
      this.logged = 0;
      this.suppressed = 0;
    }
    if (this.logged >= this.burst) {
      this.suppressed += 1;
      return;
    }
    this.logged += 1;
    this.logger.warn(fields, message);
  }

  /** How many warnings this window did not log one by one. */
  get suppressedInWindow(): number {
    return this.suppressed;
  }
}
