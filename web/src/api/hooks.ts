import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ApiError } from './client';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** Loads again, keeping the current data on screen until the answer arrives. */
  reload: () => void;
}

/** The latest value of `value`, for callbacks that must not change identity (subscriptions, timers). */
export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}

/** Runs `load` on mount, when `key` changes and on reload(); only the latest call's answer is kept. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ for?: string; data?: T; error?: ApiError }>({});
  const [generation, setGeneration] = useState(0);
  const latestLoad = useLatest(load);
  const request = `${key}\n${generation}`;

  useEffect(() => {
    let current = true;
    latestLoad.current().then(
      (data) => current && setState({ for: request, data }),
      (error: unknown) =>
        current && setState((s) => ({ for: request, data: s.data, error: error instanceof ApiError ? error : new ApiError(String(error), 'error', 0) })),
    );
    return () => {
      current = false;
    };
  }, [request, latestLoad]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data: state.data, error: state.error, loading: state.for !== request, reload };
}

/** Calls `fn` at most once per `ms` for a burst of calls (an import changes many agents at once). */
export function useCoalesced(fn: () => void, ms: number): () => void {
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
