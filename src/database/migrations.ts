import type Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Pool } from 'pg';

/** migrations/ sits at the repository root in development and beside main.js in a build. */
export function defaultMigrationsFolder(): string {
  const candidates = [path.resolve(__dirname, '../../migrations'), path.resolve(__dirname, '../migrations')];
  const found = candidates.find((c) => fs.existsSync(path.join(c, 'meta', '_journal.json')));
  if (!found) throw new Error(`migrations folder not found (looked in ${candidates.join(', ')})`);
  return found;
}

/**
 * Applies pending drizzle-kit migrations. drizzle runs them all in one transaction, so a failing
 * migration rolls back every statement of this run and leaves the database as it was.
 */
export function applyPendingMigrations(db: Database.Database, migrationsFolder = defaultMigrationsFolder()): void {
  migrate(drizzle(db), { migrationsFolder });
}

/** Separate from the store's append lock: several instances starting at once apply the migrations one after the other. */
const MIGRATION_LOCK_KEY = 7_265_063_421_015_830_001n;

/**
 * Applies pending migrations from `migrationsFolder` under an advisory lock, so several instances
 * starting at once apply them one after the other (drizzle's node-postgres migrator, one transaction).
 */
export async function migratePostgres(pool: Pool, migrationsFolder = path.join(defaultMigrationsFolder(), 'postgres')): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    try {
      await migratePg(drizzlePg(client), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    }
  } finally {
    client.release();
  }
}
