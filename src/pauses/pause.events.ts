import { type DomainEvent, eventGuard, eventReader, type PauseTarget } from '../event-store';

/** issue 26: the events of a pause stream, `pause-run-<runId>` or `pause-session-<sessionId>`. */
export const PauseEvents = {
  paused: 'pause.paused',
  unpaused: 'pause.unpaused',
} as const;

export interface PausedData {
  /** One id per pause interval: the row of `pauses` it opens. */
  pauseId: string;
  target: PauseTarget;
  /** The paused run (target `run`). */
  runId?: string;
  /** The paused session (target `session`); for a run, its thread `sub-agent-<runId>`. */
  sessionId?: string;
  /** The paused run's lineage path `/<root>/.../<run>/`: its subtree is what is held. */
  runPath?: string;
  /** Who paused: `console` or `api` (`personDecisionSource`). */
  pausedBy: string;
  reason?: string;
  /** When it began (ISO): the time a time limit leaves out is counted from here. */
  pausedAt: string;
}

export interface UnpausedData {
  pauseId: string;
  target: PauseTarget;
  runId?: string;
  sessionId?: string;
  unpausedBy: string;
  /** How long the pause held, from `pause.paused` to this event. */
  pausedMs: number;
}

export type Paused = DomainEvent<typeof PauseEvents.paused, PausedData>;
export type Unpaused = DomainEvent<typeof PauseEvents.unpaused, UnpausedData>;
export type PauseEvent = Paused | Unpaused;

export const isPauseEvent = eventGuard<PauseEvent>(Object.values(PauseEvents));
/** A pause event as another context reads it: by its type, through these payload types. */
export const readPauseEvent = eventReader<PauseEvent>(Object.values(PauseEvents));
