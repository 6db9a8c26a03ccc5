import * as fs from 'node:fs';
import * as path from 'node:path';

/** One readiness check: ok, or why not in words an operator acts on, with details. */
export interface DatabaseCheck {
  ok: boolean;
  reason?: string;
  [detail: string]: unknown;
}

/**
 * What /health and /health/ready know of the database, whichever holds the log and the read models.
 * `DatabaseModule` binds it to the dialect's: `SqliteDatabaseHealth` or `PostgresDatabaseHealth`.
 */
export abstract class DatabaseHealth {
  /** What /health shows (`dialect` first; never a password). Throws when the database does not answer. */
  abstract describe(): Promise<Record<string, unknown>>;
  /** /health/ready: does it take writes now, and is every migration shipped with this build applied? */
  abstract check(): Promise<{ database: DatabaseCheck; migrations: DatabaseCheck }>;
}

/** The `when` of every migration in a drizzle-kit journal (`meta/_journal.json`), with its tag. */
export function journalEntries(migrationsFolder: string): Array<{ tag: string; when: number }> {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string; when: number }>;
  };
  return journal.entries;
}

/** The migrations check from what the database recorded as applied (drizzle stores each one's `when`). */
export function migrationsCheck(migrationsFolder: string, appliedAt: () => Promise<number[]> | number[]): Promise<DatabaseCheck> {
  const judge = (applied: number[]): DatabaseCheck => {
    const entries = journalEntries(migrationsFolder);
    const recorded = new Set(applied.map(Number));
    const pending = entries.filter((e) => !recorded.has(e.when)).map((e) => e.tag);
    if (pending.length > 0) return { ok: false, reason: `migrations not applied: ${pending.join(', ')}`, pending };
    return { ok: true, applied: entries.length };
  };
  const failed = (error: unknown): DatabaseCheck => ({ ok: false, reason: `cannot tell which migrations are applied: ${(error as Error).message}` });
  try {
    return Promise.resolve(appliedAt()).then(judge, failed);
  } catch (error) {
    return Promise.resolve(failed(error));
  }
}
