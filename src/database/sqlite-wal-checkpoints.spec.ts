import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../../test/fixtures/temp-dir';
import { openSqliteConnection } from './sqlite-connection';
import { SqliteDatabase } from './sqlite-database';
import { SqliteWalCheckpoints } from './sqlite-wal-checkpoints';

describe('SqliteWalCheckpoints (WAL checkpoints on a worker thread)', () => {
  const tmp = makeTempDir('switchboard-wal-checkpoints-');
  afterAll(() => tmp.cleanup());

  async function until(condition: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('stops the connection checkpointing in its commits and copies the WAL into the database file from the worker', async () => {
    const file = path.join(tmp.dir, 'checkpointed.sqlite');
    const db = new SqliteDatabase(openSqliteConnection({ file, synchronous: 'FULL', busyTimeoutMs: 1000, integrityCheck: false }), file);
    const checkpoints = new SqliteWalCheckpoints(db, 20);
    try {
      checkpoints.start();
      expect(db.connection.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      db.connection.exec('CREATE TABLE t (v TEXT)');
      const insert = db.connection.prepare('INSERT INTO t VALUES (?)');
      db.connection.transaction(() => {
        for (let i = 0; i < 2000; i++) insert.run('x'.repeat(1000));
      })();
      await db.durable();
      const before = fs.statSync(file).size;
      await until(() => checkpoints.stats().checkpoints > 0 && fs.statSync(file).size > before, 'a checkpoint to copy the WAL into the file');
      expect(checkpoints.stats()).toMatchObject({ offLoop: true });
      expect(fs.statSync(file).size).toBeGreaterThan(2000 * 1000);
      // What the worker copied is what the service wrote.
      expect(db.connection.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2000 });
    } finally {
      await checkpoints.stop();
      db.close();
    }
    expect(checkpoints.stats().offLoop).toBe(false);
  });

  it('does nothing for a memory database, which has no WAL', async () => {
    const db = new SqliteDatabase(openSqliteConnection({ file: ':memory:', synchronous: 'FULL', busyTimeoutMs: 0, integrityCheck: false }), ':memory:');
    const checkpoints = new SqliteWalCheckpoints(db, 20);
    checkpoints.start();
    expect(checkpoints.stats()).toEqual({ checkpoints: 0, walFrames: 0, offLoop: false });
    await checkpoints.stop();
    db.close();
  });
});
