import type Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as fs from 'node:fs';
import * as path from 'node:path';

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
