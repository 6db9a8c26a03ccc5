import { runThreadId, type UncheckedEvent } from '../../../event-store';
import { type PauseEvent, PauseEvents, readPauseEvent } from '../../../pauses';
import { type ContextSpanMapping, attrs, num, spanEvent, str } from './span-building';

/** The session a pause holds: the paused session, or the paused run's thread. */
function pausedSessionOf(pause: UncheckedEvent<PauseEvent>): string | undefined {
  const runId = str(pause.data.runId);
  return str(pause.data.sessionId) ?? (runId ? runThreadId(runId) : undefined);
}

/** issue 26: a pause and its end are span events on the held session's current span. */
export const pauseSpans: ContextSpanMapping = {
  types: [PauseEvents.paused, PauseEvents.unpaused],

  sessionsNeeded(event) {
    const pause = readPauseEvent(event);
    return pause ? [pausedSessionOf(pause)] : undefined;
  },

  spansNeeded(event, current) {
    const pause = readPauseEvent(event);
    return pause ? [current(pausedSessionOf(pause))] : [];
  },

  map(event, state, changes) {
    const pause = readPauseEvent(event);
    const sessionId = pause ? pausedSessionOf(pause) : undefined;
    if (!pause || !sessionId) return;
    const paused = pause.type === PauseEvents.paused ? pause.data : undefined;
    const unpaused = pause.type === PauseEvents.unpaused ? pause.data : undefined;
    changes.event(
      state.context(sessionId)?.spanId,
      event.type,
      spanEvent(
        event,
        attrs({
          'switchboard.pause.id': str(pause.data.pauseId),
          'switchboard.pause.by': str(paused?.pausedBy) ?? str(unpaused?.unpausedBy),
          'switchboard.pause.reason': str(paused?.reason),
          'switchboard.pause.ms': num(unpaused?.pausedMs),
        }),
      ),
    );
  },
};
