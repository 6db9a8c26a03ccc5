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

/** A new connection that gets no answer in this time (a partitioned network, a hung server) fails instead of waiting on. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The pool the PostgreSQL store and the read models share. No connection error may end the process:
 * node-postgres emits 'error' on a client whose backend dies (pg_terminate_backend, a server restart),
 * and an EventEmitter's 'error' without a listener throws. The pool listens only while a client is
 * idle; every client it opens here gets a listener for its whole life, so a checked-out one (a
 * transaction, the append pipeline's, drizzle's) is covered too. The query in flight fails with the
 * error, its caller releases the client and the pool drops it (it is no longer queryable); the next
 * checkout opens a fresh connection. `onConnectionError` hears each lost connection once.
 */
export function createPostgresPool({ url, size, applicationName = 'switchboard' }: PostgresPoolOptions, onConnectionError?: (error: Error) => void): Pool {
  const pool = new Pool({
    connectionString: url,
    max: size,
    types: numericTypes,
    application_name: applicationName,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A peer that vanished without a FIN (a host down, a dropped NAT entry) is found by TCP keepalive.
    keepAlive: true,
  });
  pool.on('connect', (client) => {
    let reported = false;
    client.on('error', (error) => {
      // A dying backend often says so twice (its 57P01, then the closed socket): once is enough.
      if (reported) return;
      reported = true;
      onConnectionError?.(error);
    });
  });
  // Idle clients' errors reach the pool too; the client's own listener above has reported them.
  pool.on('error', () => undefined);
  return pool;
}
