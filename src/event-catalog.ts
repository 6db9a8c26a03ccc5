import { AgentEvents } from './agents/agent.events';
import { ApprovalEvents } from './approvals/approval.events';
import { ChildSessionEvents } from './child-sessions/child-session.events';
import { RunEvents } from './delegation/run.events';
import { ModelCallEvents } from './model-calls/model-call.events';
import { ApiKeyEvents } from './identity/keys/api-key.events';
import { PauseEvents } from './pauses/pause.events';
import { ScheduleEvents } from './schedules/schedule.events';
import { SessionEvents } from './sessions/session.events';
import { SESSION_FOREIGN_EVENT_TYPES } from './sessions/session-stream-appends';
import { RoutedRequestEvents } from './tool-dispatch/routed-request.events';

/**
 * Every event type in the system, in one list: its stream, who appends it, the projections that read
 * it and the console code that renders it. It sits in `src/` beside the app module because it names
 * every context. `event-catalog.spec.ts` checks it against the code (see "Add an event type" in
 * docs/ARCHITECTURE.md); a type missing here is a compile error, since the keys are the union of every
 * context's `<context>.events.ts`.
 */

type ValuesOf<T> = T[keyof T];

/** CLI `session.event`s are kept as `cli.<their type>`: one entry for all of them (the CLI decides the types). */
export const CLI_EVENTS = 'cli.<type>';

export type CatalogedEventType =
  | ValuesOf<typeof AgentEvents>
  | ValuesOf<typeof SessionEvents>
  | typeof CLI_EVENTS
  | ValuesOf<typeof RunEvents>
  | ValuesOf<typeof ApprovalEvents>
  | ValuesOf<typeof ChildSessionEvents>
  | ValuesOf<typeof RoutedRequestEvents>
  | ValuesOf<typeof ModelCallEvents>
  | ValuesOf<typeof PauseEvents>
  | ValuesOf<typeof ApiKeyEvents>
  | ValuesOf<typeof ScheduleEvents>;

/** The `*Events` objects the catalog is keyed by: a new one in a `<context>.events.ts` is added here. */
export const EVENT_TYPE_SOURCES = {
  AgentEvents,
  SessionEvents,
  RunEvents,
  ApprovalEvents,
  ChildSessionEvents,
  RoutedRequestEvents,
  ModelCallEvents,
  PauseEvents,
  ApiKeyEvents,
  ScheduleEvents,
} as const;

/** The deciders, by the name the catalog uses. */
export type DeciderName =
  | 'agentDecider'
  | 'sessionDecider'
  | 'runDecider'
  | 'approvalDecider'
  | 'modelCallDecider'
  | 'pauseDecider'
  | 'apiKeyDecider'
  | 'scheduleDecider'
  | 'firingDecider';

export interface CatalogEntry {
  /** The stream's prefix: `session` for `session-<id>` (a run's own thread included: `session-sub-agent-<run_id>`). */
  stream: 'session' | 'run' | 'agent' | 'approval' | 'model_call' | 'pause' | 'api_key' | 'schedule' | 'schedule_firing';
  /** The decider that emits it, or the context that appends it as a fact on another context's stream (version `any`). */
  appendedBy: { decider: DeciderName } | { foreign: string };
  /** Projections whose `eventTypes` list it (those that read every event are in EVERY_EVENT_PROJECTIONS). */
  projections: readonly string[];
  /** Files under `web/src` that render it by its type string, or 'not shown' (the event log page shows every event raw). */
  console: readonly string[] | 'not shown';
}

/** Projections without `eventTypes`: they read every event, so no entry names them. */
export const EVERY_EVENT_PROJECTIONS = {
  'stream-summaries': 'every stream: its last position and type',
  'audit-log': 'every event: who did what',
  sessions:
    "every event on a session stream moves its position; the session's own state events and cli.session.idle change its status; session.message_sent, cli.assistant.message and cli.session.title_changed its title and preview",
} as const;

const CONVERSATION = ['web/src/sessions/conversation.ts'];
/** issue 28: the spans projection (registered only with SWITCHBOARD_TRACES=on). */
const TRACES = 'trace-spans';
// The run page folds a run's events into its tree and words them as the steps of its timeline.
const RUN_TREE = ['web/src/runs/run-tree.ts', 'web/src/runs/timeline.ts'];

const sessionDecided = (console: CatalogEntry['console'], projections: readonly string[] = []): CatalogEntry => ({
  stream: 'session',
  appendedBy: { decider: 'sessionDecider' },
  projections,
  console,
});
const runDecided = (projections: readonly string[]): CatalogEntry => ({
  stream: 'run',
  appendedBy: { decider: 'runDecider' },
  projections,
  console: RUN_TREE,
});
const approvalDecided: CatalogEntry = {
  stream: 'approval',
  appendedBy: { decider: 'approvalDecider' },
  projections: ['approvals', TRACES],
  console: 'not shown',
};
const pauseDecided: CatalogEntry = { stream: 'pause', appendedBy: { decider: 'pauseDecider' }, projections: ['pauses', TRACES], console: 'not shown' };
const agentDecided: CatalogEntry = { stream: 'agent', appendedBy: { decider: 'agentDecider' }, projections: ['agents'], console: 'not shown' };
const modelCallDecided: CatalogEntry = {
  stream: 'model_call',
  appendedBy: { decider: 'modelCallDecider' },
  projections: ['model-calls', TRACES],
  console: 'not shown',
};
const apiKeyDecided: CatalogEntry = { stream: 'api_key', appendedBy: { decider: 'apiKeyDecider' }, projections: ['api-keys'], console: 'not shown' };
/** issue 30: a schedule's stream and each firing's; the schedules projection keeps both tables. */
const scheduleDecided: CatalogEntry = { stream: 'schedule', appendedBy: { decider: 'scheduleDecider' }, projections: ['schedules'], console: 'not shown' };
const firingDecided: CatalogEntry = {
  stream: 'schedule_firing',
  appendedBy: { decider: 'firingDecider' },
  projections: ['schedules'],
  console: 'not shown',
};
/** A foreign event on a session's stream: who appends it comes from the sessions' port list, not said again here. */
const onSession = (
  type: keyof typeof SESSION_FOREIGN_EVENT_TYPES,
  which: 'owner' | 'parent' | 'caller',
  projections: readonly string[],
  console: CatalogEntry['console'],
): CatalogEntry => ({
  stream: 'session',
  appendedBy: { foreign: `${SESSION_FOREIGN_EVENT_TYPES[type]} (on the ${which} session)` },
  projections,
  console,
});

export const EVENT_CATALOG: Record<CatalogedEventType, CatalogEntry> = {
  [AgentEvents.created]: agentDecided,
  [AgentEvents.updated]: agentDecided,
  [AgentEvents.deleted]: agentDecided,

  [SessionEvents.created]: sessionDecided('not shown', [TRACES]),
  [SessionEvents.started]: sessionDecided('not shown', [TRACES]),
  [SessionEvents.messageSent]: sessionDecided(CONVERSATION, [TRACES]),
  [SessionEvents.interrupted]: sessionDecided(CONVERSATION, [TRACES]),
  [SessionEvents.resumed]: sessionDecided(CONVERSATION, [TRACES]),
  [SessionEvents.destroyed]: sessionDecided(CONVERSATION, [TRACES]),
  [SessionEvents.startFailed]: sessionDecided(CONVERSATION),
  [SessionEvents.messageFailed]: sessionDecided(CONVERSATION, [TRACES]),
  [SessionEvents.resumeFailed]: sessionDecided(CONVERSATION),
  [SessionEvents.subAgentsChanged]: sessionDecided(CONVERSATION, [TRACES]),
  [SessionEvents.abortRequested]: sessionDecided(CONVERSATION, [TRACES]),
  [SessionEvents.steered]: sessionDecided([...CONVERSATION, 'web/src/runs/timeline.ts'], [TRACES]),
  [SessionEvents.steerFailed]: sessionDecided(CONVERSATION),
  [SessionEvents.reminded]: sessionDecided('not shown', ['runs']),
  // Folded by the session decider (cli.session.idle ends a turn), never decided: the CLI reported them.
  [CLI_EVENTS]: {
    stream: 'session',
    appendedBy: { foreign: 'sessions (recorded from the CLI)' },
    projections: ['runs', TRACES],
    console: [...CONVERSATION, ...RUN_TREE],
  },

  [RunEvents.started]: runDecided(['runs', TRACES]),
  [RunEvents.completed]: runDecided(['runs', TRACES]),
  [RunEvents.failed]: runDecided(['runs', TRACES]),
  [RunEvents.stopped]: runDecided(['runs', TRACES]),
  [RunEvents.interrupted]: runDecided(['runs', TRACES]),
  [RunEvents.resumed]: runDecided(['runs', TRACES]),
  [RunEvents.budgetWarned]: { ...runDecided(['runs', TRACES]), console: ['web/src/runs/timeline.ts'] },
  [RunEvents.ended]: onSession(RunEvents.ended, 'owner', [], 'not shown'),
  [RunEvents.progress]: onSession(RunEvents.progress, 'parent', [], 'not shown'),
  [RunEvents.delegationRefused]: onSession(RunEvents.delegationRefused, 'caller', [], 'not shown'),

  [PauseEvents.paused]: pauseDecided,
  [PauseEvents.unpaused]: pauseDecided,

  [ScheduleEvents.created]: scheduleDecided,
  [ScheduleEvents.updated]: scheduleDecided,
  [ScheduleEvents.enabled]: scheduleDecided,
  [ScheduleEvents.disabled]: scheduleDecided,
  [ScheduleEvents.deleted]: scheduleDecided,
  [ScheduleEvents.firingClaimed]: firingDecided,
  [ScheduleEvents.firingStarted]: firingDecided,
  [ScheduleEvents.firingSkipped]: firingDecided,
  [ScheduleEvents.firingFailed]: firingDecided,

  [ApiKeyEvents.created]: apiKeyDecided,
  [ApiKeyEvents.revoked]: apiKeyDecided,

  [ApprovalEvents.asked]: approvalDecided,
  [ApprovalEvents.decided]: approvalDecided,
  [ApprovalEvents.expired]: approvalDecided,

  [ModelCallEvents.started]: modelCallDecided,
  [ModelCallEvents.finished]: modelCallDecided,
  [ModelCallEvents.failed]: modelCallDecided,
  [ModelCallEvents.refused]: modelCallDecided,
  [ModelCallEvents.interrupted]: modelCallDecided,

  [ChildSessionEvents.subagentStarted]: onSession(ChildSessionEvents.subagentStarted, 'parent', ['child-sessions', TRACES], CONVERSATION),
  [ChildSessionEvents.subagentCompleted]: onSession(ChildSessionEvents.subagentCompleted, 'parent', ['child-sessions', TRACES], CONVERSATION),
  [ChildSessionEvents.subagentFailed]: onSession(ChildSessionEvents.subagentFailed, 'parent', ['child-sessions', TRACES], CONVERSATION),
  [ChildSessionEvents.childMapped]: onSession(ChildSessionEvents.childMapped, 'parent', ['child-sessions'], CONVERSATION),

  [RoutedRequestEvents.toolCallRouted]: onSession(RoutedRequestEvents.toolCallRouted, 'parent', ['routed-requests', TRACES], CONVERSATION),
  [RoutedRequestEvents.toolCallDenied]: onSession(RoutedRequestEvents.toolCallDenied, 'parent', ['routed-requests', TRACES], CONVERSATION),
  [RoutedRequestEvents.permissionDecided]: onSession(RoutedRequestEvents.permissionDecided, 'parent', ['routed-requests'], CONVERSATION),
  [RoutedRequestEvents.hookInvoked]: onSession(RoutedRequestEvents.hookInvoked, 'parent', ['routed-requests', TRACES], 'not shown'),
  [RoutedRequestEvents.userInputRequested]: onSession(RoutedRequestEvents.userInputRequested, 'parent', [TRACES], CONVERSATION),
  [RoutedRequestEvents.userInputAnswered]: onSession(RoutedRequestEvents.userInputAnswered, 'parent', ['routed-requests', TRACES], CONVERSATION),
};

/** The catalog entry of a stored event type (`cli.<anything>` is one entry), or undefined for a type nobody declared. */
export function catalogEntryOf(type: string): CatalogEntry | undefined {
  if (type.startsWith('cli.')) return EVENT_CATALOG[CLI_EVENTS];
  return Object.hasOwn(EVENT_CATALOG, type) ? EVENT_CATALOG[type as CatalogedEventType] : undefined;
}
