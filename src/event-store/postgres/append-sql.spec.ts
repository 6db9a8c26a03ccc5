import { escapeLiteral } from 'pg';
import { lockAndReadVersionsSql, sqlLiteral, writePartsSql } from './append-sql';

describe('append SQL', () => {
  it('takes the lock in a statement of its own, before the statement that reads the versions', () => {
    const sql = lockAndReadVersionsSql(42n, ['a', "o'brien"]);
    const statements = sql.split('; ');
    expect(statements[0]).toBe('BEGIN');
    expect(statements[1]).toBe('SELECT pg_advisory_xact_lock(42)');
    expect(statements[2]).toContain("ARRAY['a', 'o''brien']::text[]");
  });

  it('carries values only as escaped literals: a quote or a backslash in them cannot end the literal', () => {
    const sql = writePartsSql(
      [
        {
          streamId: "s'; DROP TABLE events; --",
          nextExpectedVersion: 1,
          events: [{ eventId: 'e', streamId: "s'; DROP TABLE events; --", streamPosition: 1, type: 'T\\', data: { q: "'" }, metadata: {} }],
        },
      ],
      '2026-01-01T00:00:00.000Z',
    );
    // Outside the literals only the fixed statement remains.
    const outside = sql.replace(/E?'(?:[^']|'')*'/g, "''");
    expect(outside).not.toContain('DROP');
    expect(outside.match(/;/g)).toBeNull();
    // A backslash makes pg use the E'' form with the backslash doubled.
    expect(sql).toContain("E'[{");
    expect(sql).toContain('T\\\\\\\\');
  });
});

describe('sqlLiteral', () => {
  it.each(['', 'plain', "o'brien", 'back\\slash', "both ' and \\ and ''", '{"a":"q\\"uote","b":"\\u0001"}', 'ünïcödé 💥'])(
    'quotes %p exactly as pg escapeLiteral does',
    (value) => {
      expect(sqlLiteral(value)).toBe(escapeLiteral(value));
    },
  );
});
