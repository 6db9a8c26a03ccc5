import { type Column, eq, type GetColumnData, type SQL } from 'drizzle-orm';

/**
 * The conditions of a list query's optional filters: a condition when the caller gave the field, else
 * undefined, which drizzle's `and()` leaves out.
 */
export function whenGiven<T>(value: T | undefined, condition: (given: T) => SQL): SQL | undefined {
  return value === undefined ? undefined : condition(value);
}

/** `column = value` when the caller gave a value; no condition otherwise. */
export function equalsWhenGiven<TColumn extends Column>(column: TColumn, value: GetColumnData<TColumn, 'raw'> | undefined): SQL | undefined {
  return whenGiven(value, (given) => eq(column, given));
}
