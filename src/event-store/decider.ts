import { ExpectedVersionConflictError } from './event-store.errors';
import type { EventStore } from './event-store';
import type { EventMetadata, StreamAppend } from './event-store.types';

/** A domain event as a decider sees it: a type tag and its data (metadata and positions are the store's). */
export interface DomainEvent<Type extends string = string, Data extends object = Record<string, unknown>> {
  type: Type;
  data: Data;
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
export function foldEvents<State, Event extends DomainEvent>(decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>, events: readonly Event[]): State {
  return events.reduce(decider.evolve, decider.initialState());
}

export interface HandleCommandOptions<State, Event extends DomainEvent> {
  metadata?: EventMetadata;
  /** The version the caller read (an If-Match): a different current version is a conflict, never retried. */
  expectedVersion?: number;
  /** Appends to other streams in the same commit (all or nothing), from the state before and after. */
  alsoAppend?: (before: State, after: State, events: Event[]) => StreamAppend[];
  /** Conflicts retried by reloading and deciding again (default 1); with `expectedVersion`, none. */
  retries?: number;
}

export interface CommandResult<State, Event extends DomainEvent> {
  state: State;
  events: Event[];
  /** The stream's version after the command (unchanged when it decided nothing). */
  version: number;
}

/**
 * The one way a command changes a stream: load and fold it, decide, append with the version it was
 * read at, and on a conflict (another writer got in between) load and decide again. Two racing
 * commands on one stream can therefore never both win against the same state.
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
    const history = store.readStream(streamId) as unknown as Event[]; // stored events carry type and data as written
    const version = history.length;
    if (options.expectedVersion !== undefined && options.expectedVersion !== version) {
      // A stale If-Match is a conflict even when the command would change nothing.
      throw new ExpectedVersionConflictError(streamId, options.expectedVersion, version);
    }
    const before = foldEvents(decider, history);
    const events = decider.decide(command, before);
    if (events.length === 0) return { state: before, events, version };
    const after = events.reduce(decider.evolve, before);
    const parts: StreamAppend[] = [
      {
        streamId,
        expectedVersion: version === 0 ? 'no_stream' : version,
        events: events.map((e) => ({ type: e.type, data: { ...e.data }, metadata: options.metadata })),
      },
      ...(options.alsoAppend?.(before, after, events) ?? []),
    ];
    try {
      await store.appendMany(parts);
      return { state: after, events, version: version + events.length };
    } catch (error) {
      if (error instanceof ExpectedVersionConflictError && attempt < retries) continue;
      throw error;
    }
  }
}
