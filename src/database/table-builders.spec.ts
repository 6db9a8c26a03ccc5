import { getTableConfig as getPgTableConfig } from 'drizzle-orm/pg-core';
import { getTableConfig as getSqliteTableConfig } from 'drizzle-orm/sqlite-core';
import { pgTableOf, sqliteTableOf } from './table-builders';
import { column, ColumnDescription, table } from './table-description';

/** One column of every kind, with each flag, an index and (in `pairs`) a composite key. */
const sample = table(
  'sample',
  {
    id: column.text('id').primaryKey(),
    count: column.integer('count').notNull().default(0),
    position: column.bigint('position').notNull(),
    flag: column.boolean('flag').notNull().default(false),
    cost: column.real('cost'),
    at: column.timestamptz('at').notNull(),
    secret: column.text('secret').unique(),
    kind: column.text('kind').notNull().default('key'),
  },
  { indexes: { sample_position_idx: ['position', 'id'], sample_kind_idx: ['kind'] } },
);
const pairs = table('pairs', { left: column.text('left').notNull(), right: column.text('right').notNull() }, { primaryKey: ['left', 'right'] });

type NameOf<C extends { _: { name: string } }> = C['_']['name'];
type SameType<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

type Config = ReturnType<typeof getSqliteTableConfig> | ReturnType<typeof getPgTableConfig>;
const columnsOf = (config: Config) =>
  Object.fromEntries(
    config.columns.map((c) => [c.name, { type: c.columnType, notNull: c.notNull, primary: c.primary, unique: c.isUnique, default: c.default }]),
  );
const indexesOf = (config: Config) =>
  config.indexes.map((i) => ({ name: i.config.name, unique: i.config.unique, columns: i.config.columns.map((c) => ('name' in c ? c.name : '?')) }));

describe('sqliteTableOf / pgTableOf', () => {
  const sqlite = getSqliteTableConfig(sqliteTableOf(sample));
  const pg = getPgTableConfig(pgTableOf(sample));

  it('maps each kind to its column type in each dialect', () => {
    const types = (config: Config) => Object.fromEntries(Object.entries(columnsOf(config)).map(([name, c]) => [name, c.type]));
    expect(types(sqlite)).toEqual({
      id: 'SQLiteText',
      count: 'SQLiteInteger',
      position: 'SQLiteInteger',
      flag: 'SQLiteBoolean',
      cost: 'SQLiteReal',
      at: 'SQLiteText',
      secret: 'SQLiteText',
      kind: 'SQLiteText',
    });
    expect(types(pg)).toEqual({
      id: 'PgText',
      count: 'PgInteger',
      position: 'PgBigInt53',
      flag: 'PgBoolean',
      cost: 'PgDoublePrecision',
      at: 'PgTimestampString',
      secret: 'PgText',
      kind: 'PgText',
    });
  });

  it('keeps keys, nullability, uniqueness and defaults alike on both', () => {
    const flags = (config: Config) => Object.fromEntries(Object.entries(columnsOf(config)).map(([name, { type: _type, ...rest }]) => [name, rest]));
    expect(flags(sqlite)).toEqual(flags(pg));
    expect(flags(pg)).toMatchObject({
      id: { primary: true, notNull: true },
      count: { notNull: true, default: 0 },
      flag: { default: false },
      cost: { notNull: false, default: undefined },
      secret: { unique: true, notNull: false },
      kind: { default: 'key' },
    });
  });

  it('builds the indexes in order and a composite primary key', () => {
    const expected = [
      { name: 'sample_position_idx', unique: false, columns: ['position', 'id'] },
      { name: 'sample_kind_idx', unique: false, columns: ['kind'] },
    ];
    expect(indexesOf(sqlite)).toEqual(expected);
    expect(indexesOf(pg)).toEqual(expected);
    expect(getSqliteTableConfig(sqliteTableOf(pairs)).primaryKeys.map((k) => k.columns.map((c) => c.name))).toEqual([['left', 'right']]);
    expect(getPgTableConfig(pgTableOf(pairs)).primaryKeys.map((k) => k.columns.map((c) => c.name))).toEqual([['left', 'right']]);
  });

  it("names a column after its property in snake_case unless it names itself, in the column's type too", () => {
    const named = table('named', { agentName: column.text().notNull(), ttfbMs: column.bigint(), url: column.text('endpoint_url') });
    const sqliteNamed = sqliteTableOf(named);
    const pgNamed = pgTableOf(named);
    const expected = ['agent_name', 'ttfb_ms', 'endpoint_url'];
    expect(getSqliteTableConfig(sqliteNamed).columns.map((c) => c.name)).toEqual(expected);
    expect(getPgTableConfig(pgNamed).columns.map((c) => c.name)).toEqual(expected);
    // The name types are those drizzle's own builders give (tsc fails here on a wrong or widened name).
    const namesTyped: SameType<
      [NameOf<typeof sqliteNamed.agentName>, NameOf<typeof pgNamed.ttfbMs>, NameOf<typeof sqliteNamed.url>],
      ['agent_name', 'ttfb_ms', 'endpoint_url']
    > = true;
    expect(namesTyped).toBe(true);
  });

  it('refuses a default of the wrong type (one the description vocabulary would not type-check)', () => {
    const wrong = new ColumnDescription('integer', 'n', { notNull: true, primaryKey: false, unique: false, default: 'zero' });
    expect(() => sqliteTableOf(table('wrong', { n: wrong }))).toThrow('A number column cannot default to "zero"');
    expect(() => pgTableOf(table('wrong', { n: wrong }))).toThrow('A number column cannot default to "zero"');
  });
});
