/** The first retry after a failed export; each further failure doubles it, up to the cap. */
export const FIRST_EXPORT_RETRY_MS = 1_000;
export const DEFAULT_EXPORT_RETRY_MAX_MS = 30_000;

/** While exports fail: the last error, since when, how many attempts in a row, and the next try. */
export interface OutageStanding {
  error: string;
  since: Date;
  attempts: number;
  nextRetryAt: Date;
}

/** What one failure means for the caller: how long to wait, and whether this started an outage (log it then, once). */
export interface FailureVerdict {
  delayMs: number;
  started: boolean;
}

/**
 * The collector being away, as the exporter lives through it: a capped exponential backoff between
 * attempts (1 s, 2 s, 4 s ... up to `maxMs`), and one outage from the first failure to the next
 * success, so the exporter logs its start and its end and nothing in between.
 */
export class ExportOutage {
  private standing?: OutageStanding;

  constructor(
    private readonly maxMs = DEFAULT_EXPORT_RETRY_MAX_MS,
    private readonly firstMs = FIRST_EXPORT_RETRY_MS,
  ) {}

  get current(): OutageStanding | undefined {
    return this.standing;
  }

  failed(error: string, now: Date): FailureVerdict {
    const attempts = (this.standing?.attempts ?? 0) + 1;
    const delayMs = Math.min(this.maxMs, this.firstMs * 2 ** Math.min(attempts - 1, 30));
    const started = this.standing === undefined;
    this.standing = { error, since: this.standing?.since ?? now, attempts, nextRetryAt: new Date(now.getTime() + delayMs) };
    return { delayMs, started };
  }

  /** An export went through: the outage it ends, if there was one. */
  succeeded(): OutageStanding | undefined {
    const ended = this.standing;
    this.standing = undefined;
    return ended;
  }
}
