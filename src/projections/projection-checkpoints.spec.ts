import { applyPendingMigrations, openSqliteConnection, SqliteDatabase } from '../database';
import { CheckpointStatements, readCheckpoint, writeCheckpoint } from './projection-checkpoints';

function database(): SqliteDatabase {
  const connection = openSqliteConnection({ file: ':memory:', synchronous: 'FULL', busyTimeoutMs: 0, integrityCheck: false });
  applyPendingMigrations(connection);
  return new SqliteDatabase(connection, ':memory:');
}

describe('CheckpointStatements', () => {
  it('reads 0 for a projection that never moved, then what it was moved to, each projection its own', () => {
    const db = database();
    const checkpoints = new CheckpointStatements(db.orm);
    expect(checkpoints.position('audit-log')).toBe(0);
    checkpoints.move('audit-log', 41);
    checkpoints.move('trace-spans', 7);
    checkpoints.move('audit-log', 42);
    expect(checkpoints.position('audit-log')).toBe(42);
    expect(checkpoints.position('trace-spans')).toBe(7);
  });

  it('shares the table with the rebuilder’s read and write (one checkpoint per projection)', () => {
    const db = database();
    const checkpoints = new CheckpointStatements(db.orm);
    writeCheckpoint(db.orm, 'audit-log', 100);
    expect(checkpoints.position('audit-log')).toBe(100);
    checkpoints.move('audit-log', 150);
    expect(readCheckpoint(db.orm, 'audit-log')).toBe(150);
    const rows = db.connection.prepare('SELECT projection_name, position, updated_at FROM projection_checkpoints').all() as Array<{ updated_at: string }>;
    expect(rows).toHaveLength(1);
    expect(Number.isNaN(Date.parse(rows[0].updated_at))).toBe(false);
  });
});
