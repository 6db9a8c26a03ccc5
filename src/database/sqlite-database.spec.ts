import * as path from 'node:path';
import { makeTempDir } from '../../test/fixtures/temp-dir';
import { openSqliteConnection, type SynchronousMode } from './sqlite-connection';
import { SqliteDatabase } from './sqlite-database';

describe('SqliteDatabase.withoutCommitSync', () => {
  const tmp = makeTempDir('switchboard-sqlite-database-');
  afterAll(() => tmp.cleanup());

  function open(file: string, synchronous: SynchronousMode): SqliteDatabase {
    return new SqliteDatabase(openSqliteConnection({ file, synchronous, busyTimeoutMs: 1000, integrityCheck: false }), file);
  }
  const syncOf = (db: SqliteDatabase) => Number(db.connection.pragma('synchronous', { simple: true }));

  it('commits the work without fsync on a WAL file and puts synchronous=FULL back after it, also when it throws', () => {
    const db = open(path.join(tmp.dir, 'full.sqlite'), 'FULL');
    try {
      db.connection.exec('CREATE TABLE t (v INTEGER)');
      const seen = db.withoutCommitSync(() => {
        db.connection.transaction(() => db.connection.prepare('INSERT INTO t VALUES (1)').run())();
        return syncOf(db);
      });
      expect(seen).toBe(1);
      expect(syncOf(db)).toBe(2);
      expect(() =>
        db.withoutCommitSync(() => {
          throw new Error('batch failed');
        }),
      ).toThrow('batch failed');
      expect(syncOf(db)).toBe(2);
      expect(db.connection.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it('keeps a configured NORMAL as it is, and leaves a memory database (no WAL) as it is', () => {
    const normal = open(path.join(tmp.dir, 'normal.sqlite'), 'NORMAL');
    const memory = open(':memory:', 'FULL');
    try {
      expect(normal.withoutCommitSync(() => syncOf(normal))).toBe(1);
      expect(syncOf(normal)).toBe(1);
      expect(memory.withoutCommitSync(() => syncOf(memory))).toBe(2);
    } finally {
      normal.close();
      memory.close();
    }
  });
});
