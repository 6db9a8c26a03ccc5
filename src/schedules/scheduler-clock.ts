import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { ReadModelDatabase } from '../database';

/** How often the offset to PostgreSQL's clock is measured again. */
export const CLOCK_SYNC_MS = 60_000;

/** An offset past this is logged as a warning: due times are judged by the database, not this machine. */
const LARGE_SKEW_MS = 1_000;

/**
 * The time the scheduler judges due times by. SQLite: this machine's clock (one process fires). On
 * PostgreSQL: this machine's clock corrected by its offset to the database's `clock_timestamp()`,
 * measured at start and every minute, so every instance agrees on when a firing is due whatever their
 * own clocks say. Which instance fires is settled by the firing's first append, never by the clock;
 * skew only moves when a firing happens (and a firing recorded as missed by a far-behind clock).
 */
@Injectable()
export class SchedulerClock implements OnModuleDestroy {
  private readonly logger = new Logger(SchedulerClock.name);
  private offsetMs = 0;
  private timer?: NodeJS.Timeout;

  constructor(private readonly db: ReadModelDatabase) {}

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** The correction applied to this machine's clock (0 on SQLite). */
  get offset(): number {
    return this.offsetMs;
  }

  /** Measures the offset (PostgreSQL) and keeps it measured; a failed measurement keeps the last one. */
  async start(): Promise<void> {
    if (this.db.dialect !== 'postgres') return;
    await this.measure().catch((error: unknown) => this.logger.warn({ err: error }, "could not read the database's clock; using this machine's"));
    this.timer = setInterval(() => {
      this.measure().catch((error: unknown) => this.logger.debug({ err: error }, "could not read the database's clock; keeping the last offset"));
    }, CLOCK_SYNC_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private async measure(): Promise<void> {
    const before = Date.now();
    const result = await this.db.orm.execute<{ ms: string | number }>(sql`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms`);
    const after = Date.now();
    const databaseMs = Number(result.rows[0]?.ms);
    if (!Number.isFinite(databaseMs)) return;
    // The database read its clock somewhere within the round trip: take the middle.
    const offset = Math.round(databaseMs - (before + after) / 2);
    if (Math.abs(offset) > LARGE_SKEW_MS && Math.abs(offset - this.offsetMs) > LARGE_SKEW_MS) {
      this.logger.warn(
        { offsetMs: offset, roundTripMs: after - before },
        "this machine's clock differs from the database's; schedules follow the database's",
      );
    }
    this.offsetMs = offset;
  }
}
