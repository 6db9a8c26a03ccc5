import { numericTypes, parseInt8 } from './postgres-pool';
import { postgresTarget } from './postgres-database-health';

describe('the PostgreSQL pool', () => {
  it('reads int8 as a number, and refuses one a JavaScript number cannot hold exactly', () => {
    expect(parseInt8('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseInt8('-42')).toBe(-42);
    expect(() => parseInt8('9007199254740993')).toThrow(/beyond 2\^53/);
  });

  it('parses int8 and numeric as numbers and leaves other types to node-postgres', () => {
    const parse = (oid: number, text: string) =>
      (numericTypes.getTypeParser as (oid: number, format: 'text') => (v: string) => unknown)(oid, 'text')(text);
    expect(parse(20, '12')).toBe(12);
    expect(parse(1700, '2.5')).toBe(2.5);
    expect(parse(16, 't')).toBe(true);
    expect(parse(23, '7')).toBe(7);
  });

  it('describes where a URL points without its password', () => {
    expect(postgresTarget('postgres://sb:secret@db.internal:6543/switchboard')).toEqual({
      host: 'db.internal',
      port: 6543,
      database: 'switchboard',
      user: 'sb',
    });
    expect(postgresTarget('postgresql:///switchboard?host=/run/postgresql')).toEqual({
      host: '/run/postgresql',
      port: 5432,
      database: 'switchboard',
      user: undefined,
    });
  });
});
