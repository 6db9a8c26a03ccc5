import { escapeLiteral } from 'pg';
import type { PlannedPart } from './append-plan';
import { GROUP_START, LOCKED_RESULT_INDEX, lockAndReadVersionsSql, lockAndWritePartsSql, sqlLiteral, writePartsSql } from './append-sql';

describe('append SQL', () => {
  it('takes the lock in a statement of its own, then the savepoint a replay goes back to, before the statement that reads the versions', () => {
    const sql = lockAndReadVersionsSql(42n, ['a', "o'brien"]);
    const statements = sql.split('; ');
    expect(statements.slice(0, LOCKED_RESULT_INDEX)).toEqual(['BEGIN', 'SELECT pg_advisory_xact_lock(42)', `SAVEPOINT ${GROUP_START}`]);
    expect(statements[LOCKED_RESULT_INDEX]).toContain("ARRAY['a', 'o''brien']::text[]");
  });

  it('puts the predicted write after the lock and the savepoint, its rows the result at LOCKED_RESULT_INDEX', () => {
    const event = { eventId: 'e1', streamId: 's', streamPosition: 1, type: 't', data: {}, metadata: {} };
    const parts: PlannedPart[] = [{ streamId: 's', nextExpectedVersion: 1, events: [event] }];
    const sql = lockAndWritePartsSql(42n, parts, '2026-11-23T00:00:00.000Z');
    expect(sql.startsWith(`BEGIN; SELECT pg_advisory_xact_lock(42); SAVEPOINT ${GROUP_START}; `)).toBe(true);
    expect(sql.slice(`BEGIN; SELECT pg_advisory_xact_lock(42); SAVEPOINT ${GROUP_START}; `.length)).toBe(writePartsSql(parts, '2026-11-23T00:00:00.000Z'));
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
