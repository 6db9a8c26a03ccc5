import * as path from 'node:path';
import { makeTempDir } from '../../test/fixtures/temp-dir';
import { openSqliteConnection } from './sqlite-connection';
import { SqliteDatabase } from './sqlite-database';

describe('SqliteDatabase.withoutCommitSync', () => {
  const tmp = makeTempDir('switchboard-sqlite-database-');
  afterAll(() => tmp.cleanup());

  function open(file: string, synchronous: 'FULL' | 'NORMAL' | 'OFF'): SqliteDatabase {
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

  it('never raises a weaker configured setting, and leaves a memory database as it is', () => {
    const off = open(path.join(tmp.dir, 'off.sqlite'), 'OFF');
    const memory = open(':memory:', 'FULL');
    try {
      expect(off.withoutCommitSync(() => syncOf(off))).toBe(0);
      expect(memory.withoutCommitSync(() => syncOf(memory))).toBe(2);
    } finally {
      off.close();
      memory.close();
    }
  });
});
