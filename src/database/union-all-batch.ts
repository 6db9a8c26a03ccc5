import type Database from 'better-sqlite3';

/** SQLite's default cap on the terms of one compound SELECT (SQLITE_MAX_COMPOUND_SELECT). */
const MAX_TERMS = 500;

/**
 * Runs one parameterised SELECT per item as a single `UNION ALL` statement (per 500 items), so a batch
 * of "first N rows of each key" reads is one statement, each term still using its own index and LIMIT.
 * `term` must select `? AS k` first: it receives the item's index, by which rows are grouped back.
 * Statements are prepared once per term count.
 */
export class UnionAllBatch<T> {
  private readonly statements = new Map<number, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly term: string,
    private readonly paramsOf: (item: T) => unknown[],
  ) {}

  /** Rows of each item, in item order. */
  run(items: readonly T[]): Array<Array<Record<string, unknown>>> {
    const grouped: Array<Array<Record<string, unknown>>> = items.map(() => []);
    for (let start = 0; start < items.length; start += MAX_TERMS) {
      const chunk = items.slice(start, start + MAX_TERMS);
      const params = chunk.flatMap((item, i) => [start + i, ...this.paramsOf(item)]);
      for (const row of this.statementFor(chunk.length).all(...params) as Array<Record<string, unknown>>) {
        const index = row.k as number;
        delete row.k;
        grouped[index].push(row);
      }
    }
    return grouped;
  }

  private statementFor(terms: number): Database.Statement {
    let statement = this.statements.get(terms);
    if (!statement) {
      const sql = Array.from({ length: terms }, () => `SELECT * FROM (${this.term})`).join(' UNION ALL ');
      this.statements.set(terms, (statement = this.db.prepare(sql)));
    }
    return statement;
  }
}
