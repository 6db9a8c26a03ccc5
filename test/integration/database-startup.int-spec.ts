import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DatabaseFileUnusableError } from '../../src/database/database-file-unusable.error';
import { openSqliteConnection } from '../../src/database/sqlite-connection';
import { makeTempDir } from '../fixtures/temp-dir';

const options = (file: string) => ({ file, synchronous: 'FULL' as const, busyTimeoutMs: 1000, integrityCheck: true });

describe('opening the database file', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  beforeEach(() => (tmp = makeTempDir()));
  afterEach(() => tmp.cleanup());

  it('creates the file and its immediate folder, in WAL mode with synchronous=FULL', () => {
    const file = path.join(tmp.dir, 'data', 'switchboard.db');
    const db = openSqliteConnection(options(file));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(1000);
    db.close();
    expect(fs.existsSync(file)).toBe(true);
  });

  it('refuses a file that is not a SQLite database, names it, and leaves its bytes untouched', () => {
    const file = path.join(tmp.dir, 'switchboard.db');
    fs.writeFileSync(file, 'this is my shopping list, not a database\n'.repeat(200));
    const before = fs.readFileSync(file);
    expect(() => openSqliteConnection(options(file))).toThrow(DatabaseFileUnusableError);
    expect(() => openSqliteConnection(options(file))).toThrow(`Cannot use database file ${file}: it is not a SQLite database`);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses a database whose pages are damaged', () => {
    const file = path.join(tmp.dir, 'switchboard.db');
    const seed = new Database(file);
    seed.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX t_v ON t (v);');
    const insert = seed.prepare('INSERT INTO t (v) VALUES (?)');
    seed.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`value-${i}-${'x'.repeat(50)}`);
    })();
    seed.close();
    // Scribble over the middle of the file, keeping the header valid.
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(8192, 0xab), 0, 8192, 8192);
    fs.closeSync(fd);
    expect(() => openSqliteConnection(options(file))).toThrow(/corrupt|malformed|not a database/);
  });

  it('refuses a path that is a folder', () => {
    const file = path.join(tmp.dir, 'switchboard.db');
    fs.mkdirSync(file);
    expect(() => openSqliteConnection(options(file))).toThrow('it exists but is not a regular file');
  });

  it('refuses a missing folder deeper than one level instead of inventing a tree', () => {
    const file = path.join(tmp.dir, 'no', 'such', 'switchboard.db');
    expect(() => openSqliteConnection(options(file))).toThrow(/does not exist/);
    expect(fs.existsSync(path.join(tmp.dir, 'no'))).toBe(false);
  });

  it('refuses a read-only location with the file named', () => {
    // /proc refuses file creation even to root, unlike chmod'ed folders.
    const file = '/proc/switchboard-test.db';
    expect(() => openSqliteConnection(options(file))).toThrow(`Cannot use database file ${file}`);
  });

  it('refuses a parent path that is a file', () => {
    const parent = path.join(tmp.dir, 'plain-file');
    fs.writeFileSync(parent, 'x');
    expect(() => openSqliteConnection(options(path.join(parent, 'switchboard.db')))).toThrow('is not a folder');
  });
});
