// Timing hooks the pages share (coalescing, polling). Server state itself lives in TanStack Query's cache.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** The latest value of `value`, for callbacks that must not change identity (subscriptions, timers). */
export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}

/** Calls `fn` at most once per `ms` for a burst of calls (an import changes many agents at once). */
export function useCoalesced(fn: () => unknown, ms: number): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useLatest(fn);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latest.current();
    }, ms);
  }, [ms, latest]);
}

/** Calls `tick` every `ms` while the tab is visible, and at once when it becomes visible again. */
export function usePolling(tick: () => void, ms: number): void {
  const latest = useLatest(tick);
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') latest.current();
    }, ms);
    const onVisible = () => document.visibilityState === 'visible' && latest.current();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [ms, latest]);
}

/** The value once it has stopped changing for `ms` (a search or a preview asks once typing pauses). */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
