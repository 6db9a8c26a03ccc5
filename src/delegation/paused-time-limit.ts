/** How often a time limit that came due during a pause is looked at again. */
export const TIME_LIMIT_RECHECK_MS = 250;

/**
 * issue 26: a launch's time limit with paused time left out. When it comes due, the time pauses held
 * since the launch (`pausedMsOver(from, to)`) moves it later; while one still holds, it is looked at
 * again at most every 250 ms. `onDue` is called once, unless cancelled first.
 */
export function pausedTimeLimit(
  timeoutMs: number,
  pausedMsOver: (from: number, to: number) => Promise<number>,
  onDue: () => void,
): { cancel: () => void } {
  const launched = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let cancelled = false;
  const arm = (delayMs: number) => {
    timer = setTimeout(() => void due(), delayMs);
    timer.unref();
  };
  const due = async () => {
    const now = Date.now();
    const pausedMs = await pausedMsOver(launched, now);
    if (cancelled) return;
    const left = launched + timeoutMs + pausedMs - now;
    if (left > 0) arm(Math.max(left, TIME_LIMIT_RECHECK_MS));
    else onDue();
  };
  arm(timeoutMs);
  return {
    cancel: () => {
      cancelled = true;
      clearTimeout(timer);
    },
  };
}
