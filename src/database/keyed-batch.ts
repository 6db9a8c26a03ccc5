import type Database from 'better-sqlite3';

/**
 * One statement for "the first N rows of each key" over any number of keys: the keys go in as one JSON
 * array (`json_each(?) AS q`, each key's fields read as `q.value ->> '$.field'`) and the statement picks
 * each key's rows with a correlated subquery that keeps its own index and `LIMIT ?`. It must select
 * `q.key AS k` (the key's index), by which rows are grouped back. Prepared once.
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
