import { ExpectedVersionConflictError } from './event-store.errors';
import type { EventStore } from './event-store';
import type { EventMetadata, StreamAppend } from './event-store.types';

/** A domain event as a decider sees it: a type tag and its data (metadata and positions are the store's). Data may be an interface (no index signature needed). */
export interface DomainEvent<Type extends string = string, Data extends object = object> {
  type: Type;
  data: Data;
}

/**
 * A type guard for one stream's event union, by type tag: the data is trusted as its decider wrote it,
 * and a stored event keeps its other fields (positions, metadata).
 */
export function eventGuard<Ev extends DomainEvent>(types: Iterable<string>): <E extends { type: string }>(event: E) => event is E & Ev {
  const known = new Set<string>(types);
  return <E extends { type: string }>(event: E): event is E & Ev => known.has(event.type);
}

/**
 * A stream's behaviour as three pure pieces (emmett's Decider): no framework in them, so each is a
 * plain unit test (`given(events).when(command).then(events)`). Live in-memory state, where a context
 * needs it, is the same fold; projections use the same `evolve` where they mirror the state.
 */
export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /** Throws a DomainError to refuse; returns [] when the command changes nothing. */
  decide: (command: Command, state: State) => Event[];
}

/** The state after `events`, from the decider's initial state. */
export function foldEvents<State, Event extends DomainEvent>(
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState());
}

export interface HandleCommandOptions<State, Event extends DomainEvent> {
  /** The events' metadata; a function when it depends on the state after them (a run's correlation id is its root run). */
  metadata?: EventMetadata | ((after: State) => EventMetadata);
  /** The version the caller read (an If-Match): a different current version is a conflict, never retried. */
  expectedVersion?: number;
  /** Appends to other streams in the same commit (all or nothing), from the state before and after. */
  alsoAppend?: (before: State, after: State, events: Event[]) => StreamAppend[];
  /** Conflicts retried by reloading and deciding again (default 1); with `expectedVersion`, none. */
  retries?: number;
  /**
   * The stream's state at `version`, as an earlier command on it left it (a live session keeps it):
   * only the events after that version are read and folded on top. A conflict falls back to a full load.
   */
  from?: { state: State; version: number };
}

export interface CommandResult<State, Event extends DomainEvent> {
  state: State;
  events: Event[];
  /** The stream's version after the command (unchanged when it decided nothing). */
  version: number;
}

export interface CommandPlan<State, Event extends DomainEvent> extends CommandResult<State, Event> {
  /** What to append, all in one commit: the stream's part (guarded by the version it was read at) first. [] when nothing changes. */
  appends: StreamAppend[];
}

/**
 * Load and fold the stream, decide, and say what to append without appending: for a caller that
 * commits several streams' plans at once (an all-or-nothing import). The decider refuses first; a
 * stale `expectedVersion` is then a conflict even when the command would change nothing.
 */
export async function planCommand<State, Command, Event extends DomainEvent>(
  store: Pick<EventStore, 'readStream'>,
  decider: Decider<State, Command, Event>,
  streamId: string,
  command: Command,
  options: Omit<HandleCommandOptions<State, Event>, 'retries'> = {},
): Promise<CommandPlan<State, Event>> {
  const base = options.from;
  // a stream holds only its decider's events, stored with type and data as decided
  const history = (await store.readStream(streamId, base ? { fromVersion: base.version + 1 } : {})) as unknown as Event[];
  const version = (base?.version ?? 0) + history.length;
  const before = base ? history.reduce(decider.evolve, base.state) : foldEvents(decider, history);
  const events = decider.decide(command, before);
  if (options.expectedVersion !== undefined && options.expectedVersion !== version) {
    throw new ExpectedVersionConflictError(streamId, options.expectedVersion, version);
  }
  if (events.length === 0) return { state: before, events, version, appends: [] };
  const after = events.reduce(decider.evolve, before);
  const metadata = typeof options.metadata === 'function' ? options.metadata(after) : options.metadata;
  const appends: StreamAppend[] = [
    {
      streamId,
      expectedVersion: version === 0 ? 'no_stream' : version,
      events: events.map((e) => ({ type: e.type, data: { ...e.data }, metadata })),
    },
    ...(options.alsoAppend?.(before, after, events) ?? []),
  ];
  return { state: after, events, version: version + events.length, appends };
}

/**
 * The one way a command changes a stream: plan it (load, fold, decide), append with the version it
 * was read at, and on a conflict (another writer got in between) plan again on the new state. Two
 * racing commands on one stream can therefore never both win against the same state.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: Pick<EventStore, 'readStream' | 'appendMany'>,
  decider: Decider<State, Command, Event>,
  streamId: string,
  command: Command,
  options: HandleCommandOptions<State, Event> = {},
): Promise<CommandResult<State, Event>> {
  const retries = options.expectedVersion !== undefined ? 0 : (options.retries ?? 1);
  for (let attempt = 0; ; attempt++) {
    // A retry reads the whole stream again rather than trusting the cached state a second time.
    const { appends, ...result } = await planCommand(store, decider, streamId, command, attempt === 0 ? options : { ...options, from: undefined });
    if (appends.length === 0) return result;
    try {
      await store.appendMany(appends);
      return result;
    } catch (error) {
      if (error instanceof ExpectedVersionConflictError && attempt < retries) continue;
      throw error;
    }
  }
}
