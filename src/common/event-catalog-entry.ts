/**
 * What the event catalog says of one event type, declared by the context that owns it in its
 * `<context>.catalog.ts` beside its `<context>.events.ts`. `src/event-catalog.spec.ts` finds every
 * `*.catalog.ts` of src and checks each claim against the code (see "Add an event type" in
 * docs/ARCHITECTURE.md); nothing central lists the contexts or their types.
 */
export interface CatalogEntry {
  /** The stream's prefix: `session` for `session-<id>` (a run's own thread included: `session-sub-agent-<run_id>`). */
  stream: string;
  /** The decider that emits it (by its exported name), or the context that appends it as a fact on another context's stream (version `any`). */
  appendedBy: { decider: string } | { foreign: string };
  /** Projections whose `eventTypes` list it (those that read every event are in EVERY_EVENT_PROJECTIONS). */
  projections: readonly string[];
  /** Files under `web/src` that render it by its type string, or 'not shown' (the event log page shows every event raw). */
  console: readonly string[] | 'not shown';
}

type ValuesOf<T> = T[keyof T];
type EventTypeSources = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** One context's entries and the `*Events` objects they cover (by the name each is exported under). */
export interface ContextCatalog {
  sources: EventTypeSources;
  entries: Readonly<Record<string, CatalogEntry>>;
}

/** A context's catalog: an entry for every type of its `*Events` objects is a compile-time must (and more, such as `cli.<type>`, may be added). */
export function contextCatalog<const Sources extends EventTypeSources>(
  sources: Sources,
  entries: Record<ValuesOf<ValuesOf<Sources>>, CatalogEntry> & Record<string, CatalogEntry>,
): ContextCatalog {
  return { sources, entries };
}

/** An entry of a type a context's decider emits on its own stream. */
export function decidedBy(decider: string, stream: string, projections: readonly string[], console: CatalogEntry['console'] = 'not shown'): CatalogEntry {
  return { stream, appendedBy: { decider }, projections, console };
}

/** CLI `session.event`s are kept as `cli.<their type>`: one entry for all of them (the CLI decides the types). */
export const CLI_EVENTS = 'cli.<type>';

/** Projections without `eventTypes`: they read every event, so no entry names them. */
export const EVERY_EVENT_PROJECTIONS = {
  'stream-summaries': 'every stream: its last position and type',
  'audit-log': 'every event: who did what',
  sessions:
    "every event on a session stream moves its position; the session's own state events and cli.session.idle change its status; session.message_sent, cli.assistant.message and cli.session.title_changed its title and preview",
} as const;

/** issue 28: the spans projection (registered only with SWITCHBOARD_TRACES=on). */
export const TRACES = 'trace-spans';
/** The console's conversation view. */
export const CONVERSATION = ['web/src/sessions/conversation.ts'];
/** The run page folds a run's events into its tree and words them as the steps of its timeline. */
export const RUN_TREE = ['web/src/runs/run-tree.ts', 'web/src/runs/timeline.ts'];
