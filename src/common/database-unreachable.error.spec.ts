import { DrizzleQueryError } from 'drizzle-orm/errors';
import { DatabaseError } from 'pg';
import { connectionFailureOf, DatabaseUnreachableError, databaseUnreachableOf } from './database-unreachable.error';

function serverError(code: string, message = `server said ${code}`): DatabaseError {
  const error = new DatabaseError(message, 0, 'error');
  error.code = code;
  return error;
}

const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -111, syscall: 'connect' });

describe('which errors mean the database is away', () => {
  it.each([
    ['57P01 admin_shutdown (pg_terminate_backend, pg_ctl stop -m fast)', serverError('57P01')],
    ['57P02 crash_shutdown', serverError('57P02')],
    ['57P03 cannot_connect_now (starting up, shutting down)', serverError('57P03')],
    ['08006 connection_failure', serverError('08006')],
    ['08001 sqlclient_unable_to_establish_sqlconnection', serverError('08001')],
    ['53300 too_many_connections', serverError('53300')],
    ['ECONNREFUSED (nothing listens)', socketError('ECONNREFUSED')],
    ['ECONNRESET (the socket was cut)', socketError('ECONNRESET')],
    ['ETIMEDOUT', socketError('ETIMEDOUT')],
    ['node-postgres: the socket closed under a query', new Error('Connection terminated unexpectedly')],
    ['node-postgres: a client used after its connection failed', new Error('Client has encountered a connection error and is not queryable')],
    ['node-postgres: no connection within connectionTimeoutMillis', new Error('timeout exceeded when trying to connect')],
  ])('%s', (_, error) => {
    expect(connectionFailureOf(error)).toBe(error);
    expect(databaseUnreachableOf(error)).toBeInstanceOf(DatabaseUnreachableError);
  });

  it('looks through the wrappers: drizzle’s failed query, a cause chain, an AggregateError of connection attempts', () => {
    const terminated = serverError('57P01');
    expect(connectionFailureOf(new DrizzleQueryError('select 1', [], terminated))).toBe(terminated);
    expect(connectionFailureOf(new Error('reading the log failed', { cause: new Error('outer', { cause: terminated }) }))).toBe(terminated);
    const attempts = new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')], 'connect failed');
    expect(connectionFailureOf(attempts)).toBe(attempts);
  });

  it.each([
    ['a unique violation (23505)', serverError('23505')],
    ['a missing table (42P01)', serverError('42P01')],
    ['a serialization failure (40001)', serverError('40001')],
    ['a statement timeout (57014 query_canceled)', serverError('57014')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['SQLite busy', Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })],
    ['a drizzle query failing for another reason', new DrizzleQueryError('select 1', [], serverError('22P02'))],
    ['not an error at all', 'Connection terminated unexpectedly'],
  ])('not %s', (_, error) => {
    expect(connectionFailureOf(error)).toBeUndefined();
    expect(databaseUnreachableOf(error)).toBeUndefined();
  });

  it('says what became of a write: not written, or unknown when COMMIT was sent', () => {
    const lost = new Error('Connection terminated unexpectedly');
    const notWritten = new DatabaseUnreachableError(lost, 'not_written');
    expect(notWritten.code).toBe('database_unavailable');
    expect(notWritten.details).toEqual({ retryable: true, retryAfterSeconds: 2, outcome: 'not_written' });
    expect(notWritten.message).toMatch(/nothing was written; retry/);
    const unknown = new DatabaseUnreachableError(lost, 'unknown');
    expect(unknown.details).toMatchObject({ outcome: 'unknown' });
    expect(unknown.message).toMatch(/may or may not have committed.*read before retrying/);
  });
});
