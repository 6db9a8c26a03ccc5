import type Database from 'better-sqlite3';

/** Distinct statements kept per connection: the projections' and read models' few dozen, with room for IN lists of varying length. */
const STATEMENTS_KEPT = 256;

/**
 * The connection as drizzle sees it, with `prepare` remembering its statements by SQL text. drizzle
 * builds a query per call and better-sqlite3 compiles whatever it is given, so an inline projection
 * paid SQLite's compile for every statement of every event (most of an append's time at 64
 * appenders); drizzle's SQL text is the same each time (values are bound), so the compiled statement
 * can be reused. A reused reader is put back in object mode: drizzle switches a statement to raw
 * mode when it maps the rows itself, and another caller of the same text may not.
 */
export function withStatementCache(connection: Database.Database, kept = STATEMENTS_KEPT): Database.Database {
  const statements = new Map<string, Database.Statement>();
  const prepare = (source: string): Database.Statement => {
    let statement = statements.get(source);
    if (statement) {
      statements.delete(source); // most recently used last
      if (statement.reader) statement.raw(false);
    } else {
      statement = connection.prepare(source);
      if (statements.size >= kept) statements.delete(statements.keys().next().value as string);
    }
    statements.set(source, statement);
    return statement;
  };
  return new Proxy(connection, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
