import { ExpectedVersionConflictError } from './event-store.errors';
import type { EventStore } from './event-store';
import type { EventMetadata, StreamAppend } from './event-store.types';
import { streamPages } from './stream-pages';

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
  /** Which stored events are this stream's own (its `<context>.events.ts` guard): a fold skips the others, foreign records on a session's stream. */
  isEvent: <E extends { type: string }>(event: E) => event is E & Event;
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
  /** Conflicts retried by reading what was appended meanwhile and deciding again (default 1); with `expectedVersion`, none. */
  retries?: number;
  /**
   * The stream's state at `version`, as an earlier command on it left it (a live session keeps it):
   * only the events after that version are read and folded on top.
   */
  from?: FoldedStream<State>;
}

/** A stream's state as `evolve` left it after its first `version` events. */
export interface FoldedStream<State> {
  state: State;
  version: number;
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
 * The stream folded on from `base` (from its start without one): only the events after `base.version`
 * are read, a page at a time with the event loop free between pages, so a long stream neither holds
 * the loop nor is read again by a command that already folded it. `evolve` is pure: folding the
 * newer events onto the state at a version is the same as folding the whole stream.
 */
export async function foldStream<State, Event extends DomainEvent>(
  store: Pick<EventStore, 'readStream'>,
  decider: Pick<Decider<State, never, Event>, 'isEvent' | 'initialState' | 'evolve'>,
  streamId: string,
  base?: FoldedStream<State>,
): Promise<FoldedStream<State>> {
  let state = base ? base.state : decider.initialState();
  let version = base?.version ?? 0;
  for await (const page of streamPages(store, streamId, version + 1)) {
    for (const event of page) if (decider.isEvent(event)) state = decider.evolve(state, event);
    version += page.length;
  }
  return { state, version };
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
  return (await planOnStream(store, decider, streamId, command, options)).plan;
}

/** planCommand, and the folded stream it decided on: where a retry after a conflict reads on from. */
async function planOnStream<State, Command, Event extends DomainEvent>(
  store: Pick<EventStore, 'readStream'>,
  decider: Decider<State, Command, Event>,
  streamId: string,
  command: Command,
  options: Omit<HandleCommandOptions<State, Event>, 'retries'>,
): Promise<{ plan: CommandPlan<State, Event>; decidedOn: FoldedStream<State> }> {
  const decidedOn = await foldStream(store, decider, streamId, options.from);
  const { state: before, version } = decidedOn;
  const events = decider.decide(command, before);
  if (options.expectedVersion !== undefined && options.expectedVersion !== version) {
    throw new ExpectedVersionConflictError(streamId, options.expectedVersion, version);
  }
  if (events.length === 0) return { plan: { state: before, events, version, appends: [] }, decidedOn };
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
  return { plan: { state: after, events, version: version + events.length, appends }, decidedOn };
}

/**
 * The one way a command changes a stream: plan it (load, fold, decide), append with the version it
 * was read at, and on a conflict (another writer got in between) plan again on the new state: the
 * state it folded, plus only the events appended since. Two racing commands on one stream can
 * therefore never both win against the same state, and a retry costs what the winner appended.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: Pick<EventStore, 'readStream' | 'appendMany'>,
  decider: Decider<State, Command, Event>,
  streamId: string,
  command: Command,
  options: HandleCommandOptions<State, Event> = {},
): Promise<CommandResult<State, Event>> {
  const retries = options.expectedVersion !== undefined ? 0 : (options.retries ?? 1);
  let from = options.from;
  for (let attempt = 0; ; attempt++) {
    const { plan, decidedOn } = await planOnStream(store, decider, streamId, command, { ...options, from });
    const { appends, ...result } = plan;
    if (appends.length === 0) return result;
    try {
      await store.appendMany(appends);
      return result;
    } catch (error) {
      if (!(error instanceof ExpectedVersionConflictError) || attempt >= retries) throw error;
      // What it folded stays true (a stream only grows): the retry reads only what the winner appended.
      from = decidedOn;
    }
  }
}
