import type Database from 'better-sqlite3';
import { type AnyColumn, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { ReadModelDatabase } from './read-model-database';

/**
 * Batches of keys go into a statement as ONE JSON array parameter, whatever their number: one prepared
 * shape, no parameter limit. The two databases read such an array differently, and only this file knows:
 * SQLite `json_each(?)` (0-based `key`, `value`), PostgreSQL `jsonb_array_elements(?::jsonb) WITH ORDINALITY`.
 * A key's fields are read as `q.value ->> 'field'` on both (text on PostgreSQL: cast numbers).
 */

/** `values` as a table `alias` with one column `value` (text), for a join or a subquery. */
export function jsonArrayRows(db: ReadModelDatabase, values: readonly (string | number)[], alias: string): SQL {
  const json = JSON.stringify(values);
  return db.dialect === 'sqlite'
    ? sql`json_each(${json}) AS ${sql.identifier(alias)}`
    : sql`jsonb_array_elements_text(${json}::jsonb) AS ${sql.identifier(alias)}(value)`;
}

/** `values` as a subquery for `inArray(column, ...)`: any number of them in one parameter. */
export function jsonArrayValues(db: ReadModelDatabase, values: readonly (string | number)[]): SQL {
  return sql`(SELECT v.value FROM ${jsonArrayRows(db, values, 'v')})`;
}

/** A table for a FROM or JOIN, with the index SQLite must use (`INDEXED BY`: the statement fails rather than scan); PostgreSQL's planner picks its own. */
export function tableIndexedBy(db: ReadModelDatabase, table: PgTable, index: string): SQL {
  return db.dialect === 'sqlite' ? sql`${table} INDEXED BY ${sql.identifier(index)}` : sql`${table}`;
}

/** A key's field inside a keyed batch's condition: text on PostgreSQL, so compare numbers through `CAST(... AS INTEGER)` (the same on both). */
export type KeyField = (name: string) => SQL;

export interface KeyedRowsSpec<T, Table extends PgTable> {
  /** From `db.tables`. */
  table: Table;
  /** The fields of one key, read by `where` through `key(name)`. */
  fieldsOf: (item: T) => Record<string, string | number>;
  /** The rows of one key: a condition over the table's columns (drizzle's, e.g. `eq(runs.parentRunId, key('id'))`). */
  where: (key: KeyField) => SQL | undefined;
  /** The order the per-key LIMIT keeps the first rows of. */
  orderBy: AnyColumn | SQL;
  /** SQLite: the index the per-key subquery must use (see `tableIndexedBy`). */
  sqliteIndex?: string;
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const keyField: KeyField = (name) => {
  if (!FIELD_NAME.test(name)) throw new Error(`key field ${JSON.stringify(name)} must be a plain identifier`);
  return sql.raw(`(q.value ->> '${name}')`);
};

/**
 * "The first N rows of each key" over any number of keys in one statement, each key's rows picked by a
 * correlated subquery that keeps its own index and `LIMIT`. SQLite: `json_each(?) AS q` joined to the
 * table on `rowid IN (SELECT rowid ... LIMIT ?)`; PostgreSQL: `... WITH ORDINALITY AS q` and a
 * `CROSS JOIN LATERAL (SELECT ... LIMIT $n)`. Rows come back grouped by key, in no particular order
 * within a key (sort them as the query promises).
 */
export class KeyedReadBatch<T, Table extends PgTable> {
  constructor(
    private readonly db: ReadModelDatabase,
    private readonly spec: KeyedRowsSpec<T, Table>,
  ) {}

  /** Rows of each item, in item order; `limit` applies to each item (split a batch with `byLimit`). */
  async run(items: readonly T[], limit: number): Promise<Array<Array<Table['$inferSelect']>>> {
    const grouped: Array<Array<Table['$inferSelect']>> = items.map(() => []);
    if (items.length === 0) return grouped;
    const keys = JSON.stringify(items.map((item) => this.spec.fieldsOf(item)));
    const rows = this.db.dialect === 'sqlite' ? await this.sqliteRows(keys, limit) : await this.postgresRows(keys, limit);
    for (const { k, row } of rows) grouped[k].push(row);
    return grouped;
  }

  private sqliteRows(keys: string, limit: number): Promise<Array<{ k: number; row: Table['$inferSelect'] }>> {
    const { where, orderBy, sqliteIndex } = this.spec;
    const table: PgTable = this.spec.table;
    const source = sqliteIndex === undefined ? sql`${table}` : tableIndexedBy(this.db, table, sqliteIndex);
    // Inside the subquery the table's name is the subquery's own FROM (the nearest scope).
    const firstRowids = sql`SELECT rowid FROM ${source} WHERE ${where(keyField) ?? sql`TRUE`} ORDER BY ${orderBy} LIMIT ${limit}`;
    return this.db.orm
      .select({ k: sql<number>`q.key`.mapWith(Number), row: getTableColumns(table) })
      .from(sql`json_each(${keys}) AS q`)
      .innerJoin(table, sql`${table}.rowid IN (${firstRowids})`);
  }

  private postgresRows(keys: string, limit: number): Promise<Array<{ k: number; row: Table['$inferSelect'] }>> {
    const { where, orderBy } = this.spec;
    const table: PgTable = this.spec.table;
    const first = this.db.orm
      .select()
      .from(table)
      .where(where(keyField))
      .orderBy(sql`${orderBy}`)
      .limit(limit)
      .as('r');
    const columns = Object.fromEntries(Object.keys(getTableColumns(table)).map((key) => [key, first[key]]));
    return this.db.orm
      .select({ k: sql<number>`q.k - 1`.mapWith(Number), row: columns })
      .from(sql`jsonb_array_elements(${keys}::jsonb) WITH ORDINALITY AS q(value, k)`)
      .crossJoinLateral(first);
  }
}

/**
 * The same over a raw SQLite connection, the statement prepared once (`json_each(?) AS q`, each key's
 * fields read as `q.value ->> '$.field'`; it must select `q.key AS k`, by which rows are grouped back).
 * For SQLite-only code (the SQLite event store's log reads); read models use `KeyedReadBatch`.
 */
export class KeyedBatch<T, Row extends object = Record<string, unknown>> {
  private readonly statement: Database.Statement;

  constructor(
    db: Database.Database,
    sql: string,
    private readonly fieldsOf: (item: T) => Record<string, unknown>,
  ) {
    this.statement = db.prepare(sql);
  }

  /** Rows of each item, in item order; `limit` applies to each item. */
  run(items: readonly T[], limit: number): Row[][] {
    const grouped: Row[][] = items.map(() => []);
    if (items.length === 0) return grouped;
    // The statement's columns are the caller's Row plus the key index `k`.
    const rows = this.statement.all(JSON.stringify(items.map(this.fieldsOf)), limit) as Array<Row & { k: number }>;
    for (const row of rows) {
      const index = row.k;
      Reflect.deleteProperty(row, 'k');
      grouped[index].push(row);
    }
    return grouped;
  }
}

/** Splits items by a value that must be the same within one statement (its LIMIT), keeping their order. */
export function byLimit<T>(items: readonly T[], limitOf: (item: T) => number): Array<{ limit: number; indexes: number[] }> {
  const groups = new Map<number, number[]>();
  items.forEach((item, i) => groups.set(limitOf(item), [...(groups.get(limitOf(item)) ?? []), i]));
  return [...groups].map(([limit, indexes]) => ({ limit, indexes }));
}
