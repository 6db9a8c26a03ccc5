import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../../test/fixtures/temp-dir';
import { openSqliteConnection, type SynchronousMode } from './sqlite-connection';
import { SqliteDatabase } from './sqlite-database';

describe('SqliteDatabase commit durability (SqliteCommitSync)', () => {
  const tmp = makeTempDir('switchboard-commit-sync-');
  afterAll(() => tmp.cleanup());

  function open(file: string, synchronous: SynchronousMode): SqliteDatabase {
    return new SqliteDatabase(openSqliteConnection({ file, synchronous, busyTimeoutMs: 1000, integrityCheck: false }), file);
  }
  const syncOf = (db: SqliteDatabase) => Number(db.connection.pragma('synchronous', { simple: true }));
  const insert = (db: SqliteDatabase, v: number) => db.connection.prepare('INSERT INTO t VALUES (?)').run(v);

  it('takes the WAL sync of a synchronous=FULL file off the connection: COMMIT no longer fsyncs, durable() does, on the thread pool', async () => {
    const db = open(path.join(tmp.dir, 'full.sqlite'), 'FULL');
    try {
      expect(db.commitSync.durability).toBe('wal-sync-off-loop');
      expect(syncOf(db)).toBe(1); // NORMAL: the commit writes the WAL, nothing more
      db.connection.exec('CREATE TABLE t (v INTEGER)');
      insert(db, 1);
      await db.durable();
      expect(db.commitSync.syncCount).toBe(1);
      expect(fs.statSync(`${db.file}-wal`).size).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('shares one sync among the commits that ask while none runs, and starts a new one for those that ask while one runs', async () => {
    const db = open(path.join(tmp.dir, 'shared.sqlite'), 'FULL');
    try {
      db.connection.exec('CREATE TABLE t (v INTEGER)');
      const first = Array.from({ length: 10 }, (_, i) => (insert(db, i), db.durable()));
      // These commit while the first sync runs: it may have started before them, so they wait for a second one.
      const second = Array.from({ length: 10 }, (_, i) => (insert(db, 10 + i), db.durable()));
      await Promise.all([...first, ...second]);
      expect(db.commitSync.syncCount).toBe(2);
    } finally {
      db.close();
    }
  });

  it('keeps a configured NORMAL unsynced and a memory database on its own setting; durable() answers at once for both', async () => {
    const normal = open(path.join(tmp.dir, 'normal.sqlite'), 'NORMAL');
    const memory = open(':memory:', 'FULL');
    try {
      expect(normal.commitSync.durability).toBe('not-synced');
      expect(syncOf(normal)).toBe(1);
      expect(memory.commitSync.durability).toBe('connection');
      expect(syncOf(memory)).toBe(2);
      await Promise.all([normal.durable(), memory.durable()]);
      expect(normal.commitSync.syncCount + memory.commitSync.syncCount).toBe(0);
    } finally {
      normal.close();
      memory.close();
    }
  });
});
