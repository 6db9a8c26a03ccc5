import { type CatalogEntry, CLI_EVENTS, CONVERSATION, contextCatalog, decidedBy, RUN_TREE, TRACES } from '../common';
import { SessionEvents } from './session.events';
import { SESSION_FOREIGN_EVENT_TYPES } from './session-stream-appends';

const sessionDecided = (console: CatalogEntry['console'], projections: readonly string[] = []) =>
  decidedBy('sessionDecider', 'session', projections, console);

/** A foreign event on a session's stream: who appends it comes from the sessions' port list, not said again in the entry. */
export const onSession = (
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

export const sessionCatalog = contextCatalog(
  { SessionEvents },
  {
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
  },
);
