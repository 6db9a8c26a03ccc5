/**
 * A table described once for both dialects: columns in a small dialect-free vocabulary, plus indexes
 * and a composite primary key by property name. A column's SQL name is its property name in
 * snake_case (`agentName` -> `agent_name`), unless the column names itself (`column.text('name')`). `sqliteTableOf` and `pgTableOf`
 * (`./table-builders.ts`) turn a description into the drizzle table of each dialect; the descriptions
 * themselves are in `./tables/`.
 */

/**
 * What a column holds, named for both dialects:
 * - `text`: text (JSON documents and ISO times included: they compare as text);
 * - `integer`: a small number (a count, a depth, a version): integer on both;
 * - `bigint`: a number that can pass 2^31 (global positions, tokens, tool calls, durations, bytes):
 *   integer on SQLite, bigint (read as a JavaScript number) on PostgreSQL;
 * - `boolean`: integer 0/1 on SQLite, boolean on PostgreSQL;
 * - `real`: real on SQLite, double precision on PostgreSQL;
 * - `timestamptz`: text on SQLite, timestamptz (read as a string) on PostgreSQL; only the columns
 *   twinned before the rule that times stay text (checkpoints, stream summaries) use it.
 */
export type ColumnKind = 'text' | 'integer' | 'bigint' | 'boolean' | 'real' | 'timestamptz';

/** The JavaScript value a kind of column holds (what its default must be). */
export type ValueOf<K extends ColumnKind> = K extends 'text' | 'timestamptz' ? string : K extends 'boolean' ? boolean : number;

/** What a column declares besides its kind and name. */
export interface ColumnFlags {
  readonly notNull: boolean;
  readonly primaryKey: boolean;
  readonly unique: boolean;
  /** The SQL default, or undefined for none. */
  readonly default: string | number | boolean | undefined;
}

const NO_FLAGS: ColumnFlags = { notNull: false, primaryKey: false, unique: false, default: undefined };

/**
 * One column. The type parameters carry its kind, SQL name, nullability, default and key, so the
 * builders give each dialect's drizzle column exactly the type drizzle's own builder calls give.
 */
export class ColumnDescription<
  K extends ColumnKind,
  N extends string,
  TNotNull extends boolean = false,
  TDefault extends boolean = false,
  TPrimary extends boolean = false,
> {
  constructor(
    readonly kind: K,
    readonly name: N,
    readonly flags: ColumnFlags = NO_FLAGS,
  ) {}

  notNull(): ColumnDescription<K, N, true, TDefault, TPrimary> {
    return new ColumnDescription(this.kind, this.name, { ...this.flags, notNull: true });
  }

  /** The table's key (implies not null). A key over several columns is the table's `primaryKey`. */
  primaryKey(): ColumnDescription<K, N, true, TDefault, true> {
    return new ColumnDescription(this.kind, this.name, { ...this.flags, notNull: true, primaryKey: true });
  }

  default(value: ValueOf<K>): ColumnDescription<K, N, TNotNull, true, TPrimary> {
    return new ColumnDescription(this.kind, this.name, { ...this.flags, default: value });
  }

  /** A unique constraint on this column alone (drizzle names it `<table>_<column>_unique`). */
  unique(): ColumnDescription<K, N, TNotNull, TDefault, TPrimary> {
    return new ColumnDescription(this.kind, this.name, { ...this.flags, unique: true });
  }
}

export type AnyColumnDescription = ColumnDescription<ColumnKind, string, boolean, boolean, boolean>;

/** The name a column gets from its property when it declares none. */
type Unnamed = '';

/** `agentName` -> `agent_name`, in types: the SQL name a property gives its column. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** `agentName` -> `agent_name`: the SQL name a property gives its column. */
export function snakeCase(property: string): string {
  return property.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * The vocabulary word of a kind: a column unnamed (`''`, named after its property by `table`), or named
 * where its SQL name differs. Two signatures, so an unnamed column's name type stays `''` instead of
 * being taken from the context.
 */
function columnOf<K extends ColumnKind>(kind: K) {
  function word(): ColumnDescription<K, Unnamed>;
  function word<N extends string>(name: N): ColumnDescription<K, N>;
  function word(name?: string): ColumnDescription<K, string> {
    return new ColumnDescription(kind, name ?? '');
  }
  return word;
}

/**
 * The column vocabulary: `column.text().notNull()`. A column named by its property needs no name; pass
 * one only where the SQL name is not the property's snake_case.
 */
export const column = {
  text: columnOf('text'),
  integer: columnOf('integer'),
  bigint: columnOf('bigint'),
  boolean: columnOf('boolean'),
  real: columnOf('real'),
  timestamptz: columnOf('timestamptz'),
};

export type ColumnsDescription = Record<string, AnyColumnDescription>;

/** What a table declares besides its columns, by property name. */
export interface TableExtras<C extends ColumnsDescription> {
  /** Plain (not unique) indexes, by SQL name, each on its columns in order. */
  readonly indexes?: Readonly<Record<string, readonly (keyof C & string)[]>>;
  /** A primary key over several columns. */
  readonly primaryKey?: readonly (keyof C & string)[];
}

export interface TableDescription<N extends string, C extends ColumnsDescription> extends TableExtras<C> {
  readonly name: N;
  readonly columns: C;
}

/** The columns of a description with each unnamed column named after its property. */
export type NamedColumns<C extends ColumnsDescription> = {
  [P in keyof C]: C[P] extends ColumnDescription<infer K, infer N, infer TNotNull, infer TDefault, infer TPrimary>
    ? ColumnDescription<K, N extends Unnamed ? SnakeCase<P & string> : N, TNotNull, TDefault, TPrimary>
    : never;
};

/** Describes a table: its SQL name, its columns by property name, its indexes and composite key. */
export function table<N extends string, C extends ColumnsDescription>(
  name: N,
  columns: C,
  extras: TableExtras<C> = {},
): TableDescription<N, NamedColumns<C>> {
  const named = Object.fromEntries(
    Object.entries(columns).map(([property, { kind, name: sqlName, flags }]) => [
      property,
      new ColumnDescription(kind, sqlName === '' ? snakeCase(property) : sqlName, flags),
    ]),
  ) as NamedColumns<C>;
  return { name, columns: named, ...extras };
}
