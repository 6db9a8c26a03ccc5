import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DatabaseFileUnusableError } from './database-file-unusable.error';

export type SynchronousMode = 'FULL' | 'NORMAL';

export interface SqliteConnectionOptions {
  /** File path, or ':memory:' for tests. */
  file: string;
  synchronous: SynchronousMode;
  busyTimeoutMs: number;
  /** Run `PRAGMA quick_check` before use. Costs a scan of the file; on by default. */
  integrityCheck: boolean;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Opens the one writer connection of this process with the pragmas the event store relies on.
 * Never creates a fresh database over a file that exists but is not a usable SQLite database.
 */
export function openSqliteConnection(options: SqliteConnectionOptions): Database.Database {
  const { file } = options;
  if (file === ':memory:') return configure(new Database(':memory:'), options);

  const absolute = path.resolve(file);
  ensureParentFolder(absolute);
  const existed = inspectExistingFile(absolute);

  let db: Database.Database;
  try {
    db = new Database(absolute, { fileMustExist: existed });
  } catch (error) {
    throw new DatabaseFileUnusableError(absolute, describeSqliteError(error));
  }
  try {
    configure(db, options);
    if (options.integrityCheck && existed) checkIntegrity(db, absolute);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof DatabaseFileUnusableError) throw error;
    throw new DatabaseFileUnusableError(absolute, describeSqliteError(error));
  }
}

/**
 * The immediate parent folder is created (the default `./data/` needs it); a deeper missing path is
 * more likely a typo or an unmounted volume, so it is refused instead of silently created.
 */
function ensureParentFolder(file: string): void {
  const folder = path.dirname(file);
  if (fs.existsSync(folder)) {
    if (!fs.statSync(folder).isDirectory()) {
      throw new DatabaseFileUnusableError(file, `${folder} is not a folder`);
    }
    return;
  }
  const grandParent = path.dirname(folder);
  if (!fs.existsSync(grandParent)) {
    throw new DatabaseFileUnusableError(
      file,
      `folder ${folder} does not exist and neither does ${grandParent}; create it or point SWITCHBOARD_DB elsewhere`,
    );
  }
  try {
    fs.mkdirSync(folder);
  } catch (error) {
    throw new DatabaseFileUnusableError(file, `cannot create folder ${folder}: ${(error as Error).message}`);
  }
}

/** Returns whether the file exists; throws when it exists but is not something SQLite may open. */
function inspectExistingFile(file: string): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new DatabaseFileUnusableError(file, `cannot read it: ${(error as Error).message}`);
  }
  if (!stat.isFile()) throw new DatabaseFileUnusableError(file, 'it exists but is not a regular file');
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDWR);
    const header = Buffer.alloc(SQLITE_HEADER.length);
    const read = fs.readSync(fd, header, 0, header.length, 0);
    if (read > 0 && (read < header.length || !header.equals(SQLITE_HEADER))) {
      throw new DatabaseFileUnusableError(file, 'it is not a SQLite database (bad file header); refusing to start so that it is not overwritten');
    }
  } catch (error) {
    if (error instanceof DatabaseFileUnusableError) throw error;
    throw new DatabaseFileUnusableError(file, `cannot open it for reading and writing: ${(error as Error).message}`);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  return true;
}

function configure(db: Database.Database, options: SqliteConnectionOptions): Database.Database {
  // busy_timeout first: the other pragmas may need a lock another process holds.
  db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs)}`);
  if (options.file !== ':memory:') {
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (String(mode).toLowerCase() !== 'wal') {
      throw new Error(`could not switch to WAL journal mode (got ${String(mode)}); is the folder read-only?`);
    }
  }
  db.pragma(`synchronous = ${options.synchronous}`);
  db.pragma('foreign_keys = ON');
  return db;
}

function checkIntegrity(db: Database.Database, file: string): void {
  const rows = db.pragma('quick_check') as Array<{ quick_check: string }>;
  const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  if (problems.length > 0) {
    throw new DatabaseFileUnusableError(file, `it is corrupt (quick_check: ${problems.slice(0, 3).join('; ')}); restore it from a backup`);
  }
}

function describeSqliteError(error: unknown): string {
  const e = error as { code?: string; message?: string };
  switch (e.code) {
    case 'SQLITE_NOTADB':
      return 'it is not a SQLite database or is encrypted; refusing to start so that it is not overwritten';
    case 'SQLITE_CORRUPT':
      return `it is corrupt (${e.message}); restore it from a backup`;
    case 'SQLITE_CANTOPEN':
      return `SQLite cannot open it (${e.message}); check that the path and its folder are writable`;
    case 'SQLITE_READONLY':
    case 'SQLITE_READONLY_DIRECTORY':
      return `it is read-only (${e.message}); Switchboard needs write access to the file and its folder`;
    case 'SQLITE_IOERR':
      return `I/O error (${e.message})`;
    default:
      return e.message ?? String(error);
  }
}
