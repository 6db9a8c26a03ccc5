import Database from 'better-sqlite3';
import { withStatementCache } from './sqlite-statement-cache';

describe('withStatementCache', () => {
  const open = () => {
    const connection = new Database(':memory:');
    connection.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
    return connection;
  };

  it('compiles a SQL text once and runs it with each call’s values, in the connection’s transaction', () => {
    const connection = open();
    const cached = withStatementCache(connection);
    const insert = cached.prepare('INSERT INTO t (name) VALUES (?)');
    expect(cached.prepare('INSERT INTO t (name) VALUES (?)')).toBe(insert);
    connection.transaction(() => {
      cached.prepare('INSERT INTO t (name) VALUES (?)').run('a');
      cached.prepare('INSERT INTO t (name) VALUES (?)').run('b');
    })();
    expect(connection.prepare('SELECT name FROM t ORDER BY id').pluck().all()).toEqual(['a', 'b']);
  });

  it('hands a reader back in object mode after someone used it raw', () => {
    const cached = withStatementCache(open());
    cached.prepare('INSERT INTO t (name) VALUES (?)').run('a');
    expect(cached.prepare('SELECT id, name FROM t').raw().all()).toEqual([[1, 'a']]);
    expect(cached.prepare('SELECT id, name FROM t').all()).toEqual([{ id: 1, name: 'a' }]);
  });

  it('keeps a bounded number of statements, the most recently used', () => {
    const cached = withStatementCache(open(), 2);
    const first = cached.prepare('SELECT 1');
    cached.prepare('SELECT 2');
    cached.prepare('SELECT 1'); // used again: stays
    cached.prepare('SELECT 3'); // evicts SELECT 2
    expect(cached.prepare('SELECT 1')).toBe(first);
    expect(cached.prepare('SELECT 2')).not.toBe(cached.prepare('SELECT 3'));
  });

  it('leaves every other method on the connection', () => {
    const connection = open();
    const cached = withStatementCache(connection);
    expect(cached.inTransaction).toBe(false);
    cached.transaction(() => expect(connection.inTransaction).toBe(true))();
    expect(cached.open).toBe(true);
  });
});
