import { useEffect, useState } from 'react';
import { subscribe } from '../api/client';
import { RunEventsSubscription } from './operations';
import { emptyStore, foldEvent, type RunStore, type RunStreamEvent } from './run-tree';
import { dropOldSteps, emptyTimeline, foldStep, type Timeline } from './timeline';

/** The newest steps the timeline keeps in memory; older ones are dropped in blocks (the audit log has every event). */
export const TIMELINE_CAP = 10_000;
const TIMELINE_DROP = 1_000;

export interface LiveRun {
  store: RunStore;
  /** How many of the oldest steps were dropped from the timeline (it keeps TIMELINE_CAP). */
  dropped: number;
  /** The subtree's events as steps a person reads (each raw event kept on its step). */
  timeline: Timeline;
  /** Bumped once per animation frame that folded events: what memoized views depend on. */
  version: number;
}

/**
 * The run's subtree, live: runEvents with includeDescendants from the run's start (so the store is the
 * events folded, nothing fetched beside them to double-count), buffered and folded once per animation
 * frame, so 200 events a second cost a few renders a second, not 200.
 */
export function useRunEvents(runId: string): LiveRun {
  // One store per mounted page (the page is keyed by run id); folded in place, `version` tells React.
  const [state] = useState(() => ({ store: emptyStore(), dropped: 0, timeline: emptyTimeline() }));
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let pending: RunStreamEvent[] = [];
    let frame: number | undefined;
    const flush = () => {
      frame = undefined;
      const batch = pending;
      pending = [];
      let changed = false;
      for (const event of batch) {
        // A replay after a reconnect starts again from the run's start: what was folded is skipped.
        if (event.globalPosition <= state.store.lastPosition) continue;
        foldEvent(state.store, event);
        foldStep(state.timeline, state.store, event);
        changed = true;
      }
      state.dropped += dropOldSteps(state.timeline, TIMELINE_CAP, TIMELINE_DROP);
      if (changed) setVersion((v) => v + 1);
    };
    const unsubscribe = subscribe(RunEventsSubscription, { runId }, ({ runEvents }) => {
      pending.push(runEvents);
      frame ??= requestAnimationFrame(flush);
    });
    return () => {
      unsubscribe();
      if (frame !== undefined) cancelAnimationFrame(frame);
    };
  }, [runId, state]);

  return { ...state, version };
}

/** Date.now(), refreshed every `ms` while `active`: running bars and durations grow with it. */
export function useNow(active: boolean, ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
  return now;
}
