import type { Observable } from 'rxjs';

/** The traces block of /health's detail. */
export interface TraceExportStatus {
  enabled: boolean;
  /** Ended spans no instance has sent yet (the database's count). */
  waiting: number;
  /** How long the span waiting longest has been ended; null when none waits. */
  oldestWaitingMs: number | null;
  /** When a span was last sent (by any instance on the database), ISO; null before the first. */
  lastExportAt: string | null;
  /** While this instance's exports fail: why, since when, attempts, and the next try; null otherwise. */
  lastError: string | null;
  failingSince?: string;
  failedAttempts?: number;
  nextRetryAt?: string;
}

/** One export attempt's spans and how it went (the metrics count them). */
export interface TraceExportOutcome {
  spans: number;
  outcome: 'exported' | 'failed';
}

/**
 * The traces exporter as the rest of the service sees it: health reads its status, metrics count its
 * outcomes. Provided (globally) only when SWITCHBOARD_TRACES is on; readers inject it `@Optional()`.
 */
export abstract class TraceExport {
  abstract status(): Promise<TraceExportStatus>;
  abstract readonly outcomes$: Observable<TraceExportOutcome>;
}

/** What /health shows with traces off. */
export const TRACES_OFF = { enabled: false } as const;
