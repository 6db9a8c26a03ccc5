import { type CustomTypesConfig, Pool, types } from 'pg';

const INT8 = 20;
const NUMERIC = 1700;

/**
 * bigint (int8) as a JavaScript number, as SQLite gives it. Positions, counts and token sums stay far
 * below 2^53; a value past it would come back rounded, so it fails loudly instead.
 */
export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} is beyond 2^53 and cannot be read as a JavaScript number`);
  return value;
}

/**
 * The pool's type parsers: int8 (count(*), sum(), bigint columns, global positions) and numeric
 * (avg()) as numbers instead of node-postgres's strings. They apply to raw queries on the pool and
 * its clients; drizzle's queries pass parsers of their own (falling back to pg's global ones), so
 * read code still maps raw aggregates with `count()` or `.mapWith(Number)`.
 */
export const numericTypes: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) return parseInt8;
    if (oid === NUMERIC) return Number;
    return types.getTypeParser(oid, format) as (text: string) => unknown;
  }) as CustomTypesConfig['getTypeParser'],
};

export interface PostgresPoolOptions {
  url: string;
  size: number;
  /** `application_name` in pg_stat_activity: which Switchboard part holds a connection. */
  applicationName?: string;
}

/** The pool the PostgreSQL store and the read models share. An idle connection's error must not crash the process. */
export function createPostgresPool({ url, size, applicationName = 'switchboard' }: PostgresPoolOptions, onIdleError?: (error: Error) => void): Pool {
  const pool = new Pool({ connectionString: url, max: size, types: numericTypes, application_name: applicationName });
  pool.on('error', (error) => onIdleError?.(error));
  return pool;
}
