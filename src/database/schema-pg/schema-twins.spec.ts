import { is } from 'drizzle-orm';
import { getTableConfig as getPgTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as getSqliteTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as sqliteSchema from '../schema';
import * as described from '../tables';
import * as pgSchema from './index';

/**
 * The read and projection code is written once with drizzle's query builder and runs on both
 * dialects, so every SQLite read-model table must have a PostgreSQL twin with the same names, keys,
 * indexes, defaults, nullability and JavaScript types. Both are built from one description
 * (`../tables`, through `sqliteTableOf` / `pgTableOf` in `../table-builders.ts`); this spec compares
 * the built tables, so it fails as soon as a builder maps a column differently on one side, or a
 * description is built on one side only.
 */

/** The log's own tables: their PostgreSQL forms differ on purpose (identity sequence, jsonb, timestamptz). */
const NOT_TWINNED = new Set(['events', 'streams']);

/** The JavaScript type each SQLite column's twin must give (drizzle's `column.dataType`). */
const EXPECTED_PG_DATA_TYPE: Record<string, string> = { string: 'string', number: 'number', boolean: 'boolean' };

/** The PostgreSQL column kinds each SQLite column kind may become. */
const ALLOWED_PG_COLUMN_TYPES: Record<string, readonly string[]> = {
  SQLiteText: ['PgText'],
  SQLiteInteger: ['PgInteger', 'PgBigInt53'],
  SQLiteBoolean: ['PgBoolean'],
  SQLiteReal: ['PgDoublePrecision'],
};

/** Tables twinned before the rule that timestamps stay text; kept as they are (a string either way). */
const TIMESTAMP_EXCEPTIONS = new Set(['projection_checkpoints.updated_at', 'stream_summaries.first_recorded_at', 'stream_summaries.last_recorded_at']);

/** Columns that can pass 2^31 (global positions, tokens, tool calls, durations, bytes) must be bigint. */
const BIG_NUMBER_COLUMN = /(position|_ms|tokens|tool_calls|bytes)$/;

/** Every table a schema module exports, by SQL name, with the table object (for property names) and its config. */
function tablesOf<T extends object, C extends { name: string }>(schema: object, isTable: (value: unknown) => value is T, config: (table: T) => C) {
  return new Map(
    Object.values(schema)
      .filter(isTable)
      .map((table) => [config(table).name, { table: table as unknown as Record<string, unknown>, config: config(table) }] as const),
  );
}

const sqliteTables = tablesOf(sqliteSchema, (v): v is SQLiteTable => is(v, SQLiteTable), getSqliteTableConfig);
const pgTables = tablesOf(pgSchema, (v): v is PgTable => is(v, PgTable), getPgTableConfig);
const twinned = [...sqliteTables.keys()].filter((name) => !NOT_TWINNED.has(name)).sort();

interface ColumnShape {
  property: string;
  notNull: boolean;
  primary: boolean;
  hasDefault: boolean;
  default: unknown;
}

interface AnyColumn {
  columnType: string;
  notNull: boolean;
  primary: boolean;
  hasDefault: boolean;
  default: unknown;
}

/**
 * The dialect-free shape of a column: what the shared query code depends on. Drizzle marks every
 * SQLite integer primary key as defaulted (the rowid alias); those keys here are the log's global
 * position, always given on insert, so only a declared default counts.
 */
function shapeOf(property: string, column: AnyColumn): ColumnShape {
  const rowidAlias = column.columnType === 'SQLiteInteger' && column.primary && column.default === undefined;
  return { property, notNull: column.notNull, primary: column.primary, hasDefault: column.hasDefault && !rowidAlias, default: column.default };
}

/** Columns by SQL name, each with its TypeScript property name (the key in the table object). */
function columnsOf(table: Record<string, unknown>, columns: readonly { name: string }[]): Map<string, string> {
  const propertyByColumn = new Map<string, string>();
  for (const column of columns) {
    const property = Object.keys(table).find((key) => table[key] === column);
    propertyByColumn.set(column.name, property ?? '?');
  }
  return propertyByColumn;
}

describe('PostgreSQL twins of the SQLite read-model tables', () => {
  it('finds the read-model tables to compare (the spec is not vacuous)', () => {
    expect(twinned).toEqual(
      expect.arrayContaining([
        'agents',
        'approvals',
        'audit_log',
        'child_sessions',
        'projection_checkpoints',
        'routed_requests',
        'runs',
        'sessions',
        'stream_summaries',
        'subagent_instances',
      ]),
    );
  });

  it('schema-pg/index.ts exports a twin for every SQLite read-model table', () => {
    const missing = twinned.filter((name) => !pgTables.has(name));
    expect(missing).toEqual([]);
  });

  it('builds every description in ../tables on both dialects, under its own name', () => {
    const descriptions = Object.entries(described).map(([property, description]) => [property, description.name] as const);
    const builtAs = (tables: Map<string, { table: Record<string, unknown> }>, schema: object) =>
      descriptions.filter(([property, name]) => !tables.has(name) || (schema as Record<string, unknown>)[property] !== tables.get(name)!.table);
    expect(descriptions.length).toBeGreaterThan(10);
    expect(builtAs(sqliteTables, sqliteSchema)).toEqual([]);
    expect(builtAs(pgTables, pgSchema)).toEqual([]);
  });

  describe.each(twinned)('%s', (name) => {
    const sqliteTable = sqliteTables.get(name)!;
    const sqlite = sqliteTable.config;
    const pgTable = pgTables.get(name);
    const pg = pgTable?.config;

    it('has the same columns (SQL and property names), keys, nullability and defaults', () => {
      expect(pg).toBeDefined();
      const sqliteProps = columnsOf(sqliteTable.table, sqlite.columns);
      const pgProps = columnsOf(pgTable!.table, pg!.columns);
      const sqliteShape = Object.fromEntries(sqlite.columns.map((c) => [c.name, shapeOf(sqliteProps.get(c.name)!, c)]));
      const pgShape = Object.fromEntries(pg!.columns.map((c) => [c.name, shapeOf(pgProps.get(c.name)!, c)]));
      expect(pgShape).toEqual(sqliteShape);
    });

    it('has the same composite primary keys and unique constraints', () => {
      const keys = (pks: readonly { columns: readonly { name: string }[] }[]) => pks.map((pk) => pk.columns.map((c) => c.name));
      expect(keys(pg!.primaryKeys)).toEqual(keys(sqlite.primaryKeys));
      const uniques = (us: readonly { name?: string; columns: readonly { name: string }[] }[]) =>
        us.map((u) => ({ name: u.name, columns: u.columns.map((c) => c.name) })).sort((a, b) => String(a.name).localeCompare(String(b.name)));
      expect(uniques(pg!.uniqueConstraints)).toEqual(uniques(sqlite.uniqueConstraints));
    });

    it('has the same indexes (name, columns, uniqueness)', () => {
      const columnName = (c: unknown) => (c as { name?: string }).name ?? '<expression>';
      const sqliteIndexes = sqlite.indexes.map((i) => ({ name: i.config.name, unique: i.config.unique, columns: i.config.columns.map(columnName) }));
      const pgIndexes = pg!.indexes.map((i) => ({ name: i.config.name, unique: i.config.unique, columns: i.config.columns.map(columnName) }));
      const byName = (a: { name?: string }, b: { name?: string }) => String(a.name).localeCompare(String(b.name));
      expect(pgIndexes.sort(byName)).toEqual(sqliteIndexes.sort(byName));
    });

    it('gives the same JavaScript type per column, through an allowed PostgreSQL type', () => {
      const pgByName = new Map(pg!.columns.map((c) => [c.name, c]));
      const mismatches: string[] = [];
      for (const column of sqlite.columns) {
        const twin = pgByName.get(column.name);
        if (!twin) continue; // reported by the column test
        const qualified = `${name}.${column.name}`;
        if (twin.dataType !== EXPECTED_PG_DATA_TYPE[column.dataType]) mismatches.push(`${qualified}: ${column.dataType} -> ${twin.dataType}`);
        const allowed = TIMESTAMP_EXCEPTIONS.has(qualified) ? ['PgTimestampString'] : (ALLOWED_PG_COLUMN_TYPES[column.columnType] ?? []);
        if (!allowed.includes(twin.columnType)) mismatches.push(`${qualified}: ${column.columnType} -> ${twin.columnType}`);
        if (column.dataType === 'number' && BIG_NUMBER_COLUMN.test(column.name) && twin.columnType !== 'PgBigInt53') {
          mismatches.push(`${qualified}: can pass 2^31, must be bigint (mode number), is ${twin.columnType}`);
        }
      }
      expect(mismatches).toEqual([]);
    });
  });
});
