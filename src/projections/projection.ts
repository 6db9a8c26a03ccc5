import { Contributes } from '../common';
import { DrizzleQueryError } from 'drizzle-orm';
import type { ReadModelDatabase, ReadTableName } from '../database';
import type { ClientBase } from 'pg';
import type { StoredEvent } from '../event-store';

/**
 * inline: applied inside the append's transaction, so its read model is never behind its events
 * and never half-written. async: applied after commit by the projection runner, checkpointed.
 */
export type ProjectionMode = 'inline' | 'async';

/** One statement a projection asks to run, and what it wants back: the first row, every row, or nothing. */
export interface ProjectionStep {
  kind: 'one' | 'many' | 'run';
  /** A drizzle builder (on SQLite also runnable synchronously), or a statement prepared once (`runPrepared`, `onePrepared`, SQLite). */
  query: PromiseLike<unknown> | SqlitePreparedStep;
}

/** A SQLite statement prepared once, bound to this event's values: it runs (a write) or gets its first row, synchronously. */
type SqlitePreparedStep = { run(): unknown } | { get(): unknown };

/**
 * A projection's work for a batch of events, written once for both databases as a generator that yields
 * each statement (`yield* one(...)`, `yield* many(...)`, `yield* run(...)`) and gets its result back.
 * The store drives it: synchronously inside a better-sqlite3 transaction (`runProjectionSync`), or
 * awaiting each statement on the PostgreSQL transaction's connection (`runProjectionAsync`).
 */
export type ProjectionWork = Generator<ProjectionStep, void, unknown>;

/**
 * The one projection contract, batch-first (emmett's `handle(events[])` with `canHandle`): a projection
 * receives the events of one transaction that it handles (`eventTypes`), in global order, and writes
 * its rows through `db`, the transaction's. The same events reach it inline (in the append's
 * transaction), from the async runner (a checkpointed batch) or from a rebuild (a page of the log).
 * Most projections are a per-event fold: `PerEventProjection` / `perEventProjection` build `handle`
 * from `apply(event)`. One that needs a set-based form on a dialect names it in `setBased`.
 */
export interface Projection {
  readonly name: string;
  readonly mode: ProjectionMode;
  /** The read-model tables this projection owns; a rebuild empties them and replays from position 0. */
  readonly tables: readonly ReadTableName[];
  /** canHandle: the event types it is given; unset means every event. */
  readonly eventTypes?: readonly string[];
  /** Statements only through `db`, each yielded: see `ProjectionWork`. Written once for both dialects. */
  handle(events: readonly StoredEvent[], db: ReadModelDatabase): ProjectionWork;
  /** What runs instead of `handle` on a dialect where statement-per-event costs too much. */
  readonly setBased?: SetBasedForms;
}

export interface SetBasedForms {
  readonly postgres?: PostgresSetBasedForm;
}

/**
 * A projection's set-based form on PostgreSQL: the events of a transaction in a few statements instead
 * of a round trip per statement, under the append lock. It must write the rows `handle` writes; what
 * it relies on for that is its `invariant`, a property tests check against `handle` (see
 * `BatchInvariant`), and `test/fixtures/batch-form-equivalence.ts` folds both forms over one log.
 */
export interface PostgresSetBasedForm {
  readonly invariant: BatchInvariant;
  /**
   * `events` as `handle` gets them. `handle` runs events through the projection's own handler on the
   * same connection, for the ones the set-based statements do not cover.
   */
  apply(client: ClientBase, events: readonly StoredEvent[], handle: (events: readonly StoredEvent[]) => Promise<void>): Promise<void>;
}

/**
 * What a set-based form relies on, as a named property of the projection's own handler: handling
 * `normalForm(events)` writes the rows handling `events` writes, from any rows before. The normal form
 * is the batch rearranged as the set-based form applies it (what it folds into one statement goes
 * last, what it drops is dropped), so the form is right when its statements equal `handle` over it.
 */
export interface BatchInvariant {
  /** A name tests and failures cite, e.g. `callsAreIndependent`. */
  readonly name: string;
  /** The claim, in one sentence. */
  readonly statement: string;
  normalForm(events: readonly StoredEvent[]): StoredEvent[];
}

/** The per-event fold every simple projection is: `handle` applies `apply` to each event in order. */
export interface PerEventFold {
  readonly name: string;
  readonly mode: ProjectionMode;
  readonly tables: readonly ReadTableName[];
  readonly eventTypes?: readonly string[];
  readonly setBased?: SetBasedForms;
  apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork;
}

/** A batch of one (every inline event: see InlineProjections) is `apply` itself, without a generator around it. */
function foldEach(fold: PerEventFold, events: readonly StoredEvent[], db: ReadModelDatabase): ProjectionWork {
  return events.length === 1 ? fold.apply(events[0], db) : foldAll(fold, events, db);
}

function* foldAll(fold: PerEventFold, events: readonly StoredEvent[], db: ReadModelDatabase): ProjectionWork {
  for (const event of events) yield* fold.apply(event, db);
}

/** A projection from a per-event fold written as an object (a class projection extends `PerEventProjection`). */
export function perEventProjection(fold: PerEventFold): Projection {
  const { name, mode, tables, eventTypes, setBased } = fold;
  return { name, mode, tables, eventTypes, setBased, handle: (events, db) => foldEach(fold, events, db) };
}

/**
 * A class projection written as a per-event fold: it implements `apply(event)` (and may set `eventTypes`,
 * `setBased`), and `handle` folds a batch with it.
 */
export abstract class PerEventProjection implements Projection, PerEventFold {
  abstract readonly name: string;
  abstract readonly mode: ProjectionMode;
  abstract readonly tables: readonly ReadTableName[];
  abstract apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork;

  handle(events: readonly StoredEvent[], db: ReadModelDatabase): ProjectionWork {
    return foldEach(this, events, db);
  }
}

/** The first row of a select (undefined when none). */
export function* one<Row>(query: PromiseLike<Row[]>): Generator<ProjectionStep, Row | undefined, unknown> {
  return (yield { kind: 'one', query }) as Row | undefined;
}

/** Every row of a select. */
export function* many<Row>(query: PromiseLike<Row[]>): Generator<ProjectionStep, Row[], unknown> {
  return (yield { kind: 'many', query }) as Row[];
}

/** An insert, update or delete. */
export function* run(query: PromiseLike<unknown>): Generator<ProjectionStep, void, unknown> {
  yield { kind: 'run', query };
}

/** A statement built with drizzle placeholders (`sql.placeholder('name')`), whichever dialect builds it. */
interface Preparable {
  prepare(name: string): unknown;
}

/** What a drizzle prepared query offers on either dialect: `run` / `get` on SQLite (synchronous), `execute` on PostgreSQL. */
interface PreparedStatement {
  run?(values: Record<string, unknown>): unknown;
  get?(values: Record<string, unknown>): unknown;
  execute?(values: Record<string, unknown>): Promise<unknown>;
}

const preparedByDatabase = new WeakMap<ReadModelDatabase, Map<string, PreparedStatement>>();

/** The statement `key` on this connection, built and prepared the first time it is asked for. */
function preparedOn(db: ReadModelDatabase, key: string, build: (db: ReadModelDatabase) => Preparable): PreparedStatement {
  let statements = preparedByDatabase.get(db);
  if (!statements) preparedByDatabase.set(db, (statements = new Map<string, PreparedStatement>()));
  let prepared = statements.get(key);
  if (!prepared) statements.set(key, (prepared = build(db).prepare(key) as PreparedStatement));
  return prepared;
}

/**
 * A write the projection runs for (nearly) every event, built ONCE per connection with placeholders
 * and run with this event's `values`. drizzle's query building costs more than SQLite's write itself
 * (about 100 us an event, most of an inline projection's cost at 64 appenders); on PostgreSQL the
 * statement is named and parsed once per pooled connection. `key` names the statement: one per shape.
 */
export function* runPrepared(
  db: ReadModelDatabase,
  key: string,
  build: (db: ReadModelDatabase) => Preparable,
  values: Record<string, unknown>,
): ProjectionWork {
  const write = preparedOn(db, key, build);
  const query = db.dialect === 'sqlite' ? { run: () => write.run?.(values) } : (write.execute?.(values) as Promise<unknown>);
  yield { kind: 'run', query };
}

/** The first row of a select prepared once per connection (see `runPrepared`), undefined when none. */
export function* onePrepared<Row>(
  db: ReadModelDatabase,
  key: string,
  build: (db: ReadModelDatabase) => Preparable & PromiseLike<Row[]>,
  values: Record<string, unknown>,
): Generator<ProjectionStep, Row | undefined, unknown> {
  const select = preparedOn(db, key, build);
  const query = db.dialect === 'sqlite' ? { get: () => select.get?.(values) } : (select.execute?.(values) as Promise<unknown>);
  return (yield { kind: 'one', query }) as Row | undefined;
}

/** A SQLite drizzle builder's synchronous executions for each kind of step. */
const SQLITE_EXECUTION = { one: 'get', many: 'all', run: 'run' } as const;

/**
 * Whether the statement has the synchronous execution: drizzle's SQLite builders do, but the shared
 * code sees them typed as PostgreSQL builders (see SqliteReadModels), so it is checked when run.
 */
function runsSynchronously<M extends string>(query: object, method: M): query is Record<M, () => unknown> {
  return typeof Reflect.get(query, method) === 'function';
}

/** Runs a projection's work on SQLite, statement by statement, without leaving the current transaction. */
export function runProjectionSync(work: ProjectionWork): void {
  for (let step = work.next(); !step.done;) {
    const { kind, query } = step.value;
    const method = SQLITE_EXECUTION[kind];
    if (!runsSynchronously(query, method)) throw new Error(`A projection's ${kind} statement has no synchronous ${method}(): not a SQLite statement`);
    const result = query[method]();
    step = work.next(kind === 'run' ? undefined : result);
  }
}

/**
 * Runs a projection's work on PostgreSQL, awaiting each statement on the connection `db` was bound to.
 * A failing statement throws the driver's error, as on SQLite: drizzle wraps it in a DrizzleQueryError
 * whose message is the SQL and its parameters (event data), which /health would show instead of the reason.
 */
export async function runProjectionAsync(work: ProjectionWork): Promise<void> {
  for (let step = work.next(); !step.done;) {
    const { kind, query } = step.value;
    let rows: unknown;
    try {
      rows = await query;
    } catch (error) {
      throw error instanceof DrizzleQueryError && error.cause ? error.cause : error;
    }
    step = work.next(kind === 'one' ? (rows as unknown[])[0] : kind === 'many' ? rows : undefined);
  }
}

export function projectionHandles(projection: Projection, event: StoredEvent): boolean {
  return projection.eventTypes === undefined || projection.eventTypes.includes(event.type);
}

export const READ_MODEL_PROJECTION = 'switchboard:read-model-projection';

/** Marks a provider as a projection: the ProjectionRegistry finds and registers it when the app starts. */
export function ReadModelProjection(): ClassDecorator {
  return Contributes(READ_MODEL_PROJECTION);
}
