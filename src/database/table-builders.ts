import type { ColumnBuilderBase, HasDefault, NotNull } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import * as sqlite from 'drizzle-orm/sqlite-core';
import type {
  AnyColumnDescription,
  ColumnDescription,
  ColumnFlags,
  ColumnKind,
  ColumnsDescription,
  TableDescription,
  TableExtras,
} from './table-description';

/** The drizzle builder type of a column kind on SQLite (what `text(name)`, `integer(name)`... give). */
type SqliteBuilderOf<K extends ColumnKind, N extends string> = K extends 'text' | 'timestamptz'
  ? sqlite.SQLiteTextBuilderInitial<N, [string, ...string[]], number | undefined>
  : K extends 'integer' | 'bigint'
    ? sqlite.SQLiteIntegerBuilderInitial<N>
    : K extends 'boolean'
      ? sqlite.SQLiteBooleanBuilderInitial<N>
      : sqlite.SQLiteRealBuilderInitial<N>;

/** The drizzle builder type of a column kind on PostgreSQL. */
type PgBuilderOf<K extends ColumnKind, N extends string> = K extends 'text'
  ? pg.PgTextBuilderInitial<N, [string, ...string[]]>
  : K extends 'timestamptz'
    ? pg.PgTimestampStringBuilderInitial<N>
    : K extends 'integer'
      ? pg.PgIntegerBuilderInitial<N>
      : K extends 'bigint'
        ? pg.PgBigInt53BuilderInitial<N>
        : K extends 'boolean'
          ? pg.PgBooleanBuilderInitial<N>
          : pg.PgDoublePrecisionBuilderInitial<N>;

/** What `.primaryKey()` gives on a builder (SQLite's integer key is also defaulted: it is the rowid). */
type PrimaryKeyOf<B> = B extends { primaryKey(): infer R } ? R : never;

/** A builder with the flags its description declares, as drizzle's own chained calls type it. */
type Flagged<B extends ColumnBuilderBase, TNotNull, TDefault, TPrimary> = TPrimary extends true
  ? TDefault extends true
    ? HasDefault<Extract<PrimaryKeyOf<B>, ColumnBuilderBase>>
    : PrimaryKeyOf<B>
  : TDefault extends true
    ? HasDefault<TNotNull extends true ? NotNull<B> : B>
    : TNotNull extends true
      ? NotNull<B>
      : B;

type SqliteColumnOf<D> =
  D extends ColumnDescription<infer K, infer N, infer TNotNull, infer TDefault, infer TPrimary>
    ? Flagged<SqliteBuilderOf<K, N>, TNotNull, TDefault, TPrimary>
    : never;
type PgColumnOf<D> =
  D extends ColumnDescription<infer K, infer N, infer TNotNull, infer TDefault, infer TPrimary>
    ? Flagged<PgBuilderOf<K, N>, TNotNull, TDefault, TPrimary>
    : never;

export type SqliteColumnsOf<C extends ColumnsDescription> = { [P in keyof C]: Extract<SqliteColumnOf<C[P]>, sqlite.SQLiteColumnBuilderBase> };
export type PgColumnsOf<C extends ColumnsDescription> = { [P in keyof C]: Extract<PgColumnOf<C[P]>, pg.PgColumnBuilderBase> };

/** The methods both dialects' column builders share, all a description needs; each gives the builder back. */
interface FlaggableBuilder<D, Self> {
  notNull(): Self;
  primaryKey(): Self;
  unique(): Self;
  default(value: D): Self;
}

/** The declared default as the column's JavaScript type (`ColumnDescription.default` takes only that type). */
function defaultOf<D extends string | number | boolean>(
  flags: ColumnFlags,
  type: 'string' | 'number' | 'boolean',
  isType: (value: unknown) => value is D,
): D | undefined {
  if (flags.default === undefined) return undefined;
  if (!isType(flags.default)) throw new Error(`A ${type} column cannot default to ${JSON.stringify(flags.default)}`);
  return flags.default;
}
const stringDefault = (flags: ColumnFlags) => defaultOf(flags, 'string', (value): value is string => typeof value === 'string');
const numberDefault = (flags: ColumnFlags) => defaultOf(flags, 'number', (value): value is number => typeof value === 'number');
const booleanDefault = (flags: ColumnFlags) => defaultOf(flags, 'boolean', (value): value is boolean => typeof value === 'boolean');

function withFlags<D, B extends FlaggableBuilder<D, B>>(builder: B, flags: ColumnFlags, defaultValue: D | undefined): B {
  let flagged = builder;
  if (flags.primaryKey) flagged = flagged.primaryKey();
  else if (flags.notNull) flagged = flagged.notNull();
  if (flags.unique) flagged = flagged.unique();
  if (defaultValue !== undefined) flagged = flagged.default(defaultValue);
  return flagged;
}

function sqliteColumn({ kind, name, flags }: AnyColumnDescription): sqlite.SQLiteColumnBuilderBase {
  if (kind === 'text' || kind === 'timestamptz') return withFlags(sqlite.text(name), flags, stringDefault(flags));
  if (kind === 'boolean') return withFlags(sqlite.integer(name, { mode: 'boolean' }), flags, booleanDefault(flags));
  if (kind === 'real') return withFlags(sqlite.real(name), flags, numberDefault(flags));
  return withFlags(sqlite.integer(name), flags, numberDefault(flags));
}

function pgColumn({ kind, name, flags }: AnyColumnDescription): pg.PgColumnBuilderBase {
  if (kind === 'text') return withFlags(pg.text(name), flags, stringDefault(flags));
  if (kind === 'timestamptz') return withFlags(pg.timestamp(name, { withTimezone: true, mode: 'string' }), flags, stringDefault(flags));
  if (kind === 'integer') return withFlags(pg.integer(name), flags, numberDefault(flags));
  if (kind === 'bigint') return withFlags(pg.bigint(name, { mode: 'number' }), flags, numberDefault(flags));
  if (kind === 'boolean') return withFlags(pg.boolean(name), flags, booleanDefault(flags));
  return withFlags(pg.doublePrecision(name), flags, numberDefault(flags));
}

function mapColumns<B>(columns: ColumnsDescription, build: (description: AnyColumnDescription) => B): Record<string, B> {
  return Object.fromEntries(Object.entries(columns).map(([property, description]) => [property, build(description)]));
}

/** What a dialect's drizzle module gives to build a table's indexes and composite key. */
interface ExtrasDialect<Column, Extra> {
  index(name: string): { on(first: Column, ...rest: Column[]): Extra };
  primaryKey(config: { columns: [Column, ...Column[]] }): Extra;
}

/** The extra-config callback of a table: its indexes in order, then its composite key, on the built columns. */
function extrasOf<Column, Extra>(description: TableExtras<ColumnsDescription>, dialect: ExtrasDialect<Column, Extra>) {
  return (built: Record<string, Column>): Extra[] => {
    const on = (properties: readonly string[]): [Column, ...Column[]] => {
      const [first, ...rest] = properties.map((property) => built[property]);
      return [first, ...rest];
    };
    const indexes = Object.entries(description.indexes ?? {}).map(([name, properties]) => {
      const [first, ...rest] = on(properties);
      return dialect.index(name).on(first, ...rest);
    });
    return description.primaryKey ? [...indexes, dialect.primaryKey({ columns: on(description.primaryKey) })] : indexes;
  };
}

/** The SQLite drizzle table of a description. */
export function sqliteTableOf<N extends string, C extends ColumnsDescription>(description: TableDescription<N, C>) {
  const columns = mapColumns(description.columns, sqliteColumn) as SqliteColumnsOf<C>;
  return sqlite.sqliteTable(description.name, columns, extrasOf<sqlite.SQLiteColumn, sqlite.SQLiteTableExtraConfigValue>(description, sqlite));
}

/** The PostgreSQL drizzle table of a description. */
export function pgTableOf<N extends string, C extends ColumnsDescription>(description: TableDescription<N, C>) {
  const columns = mapColumns(description.columns, pgColumn) as PgColumnsOf<C>;
  return pg.pgTable(description.name, columns, extrasOf<pg.PgColumn, pg.PgTableExtraConfigValue>(description, pg));
}
