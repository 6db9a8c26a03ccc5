/** What the copy's progress line shows: pure, so the wording and the arithmetic are unit-tested. */
export interface ProgressSample {
  done: number;
  total: number;
  /** Since the copy started, and what was already done then (a resumed copy does not count it in the rate). */
  elapsedMs: number;
  doneAtStart?: number;
}

const count = (n: number) => n.toLocaleString('en-US');

/** 75 -> "1:15", 3725 -> "1:02:05". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const [h, m, rest] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(rest).padStart(2, '0')}`;
}

/** "12,000/50,000 events  24%  8,100 events/s  ETA 0:05"; the rate and ETA are "-" until something moved. */
export function formatProgress({ done, total, elapsedMs, doneAtStart = 0 }: ProgressSample): string {
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  const moved = done - doneAtStart;
  const rate = elapsedMs > 0 && moved > 0 ? (moved * 1000) / elapsedMs : undefined;
  const eta = rate === undefined ? '-' : formatDuration((total - done) / rate);
  return `${count(done)}/${count(total)} events  ${percent}%  ${rate === undefined ? '-' : count(Math.round(rate))} events/s  ETA ${eta}`;
}

/** The tenth of the total reached (0..10): off a terminal, a line is printed each time it grows. */
export function decileOf(done: number, total: number): number {
  return total === 0 ? 10 : Math.min(10, Math.floor((done / total) * 10));
}

/**
 * On a terminal one line redrawn in place; elsewhere (CI logs, pipes) a line per 10%. Writes to
 * `stream` (stderr: stdout keeps the command's result).
 */
export function progressPrinter(stream: NodeJS.WriteStream, label: string, now: () => number = () => performance.now()) {
  const started = now();
  let doneAtStart: number | undefined;
  let lastDecile = -1;
  let drawn = false;
  return {
    update(done: number, total: number): void {
      doneAtStart ??= done;
      const line = `${label} ${formatProgress({ done, total, elapsedMs: now() - started, doneAtStart })}`;
      if (stream.isTTY) {
        stream.write(`\r${line}\x1b[K`);
        drawn = true;
        return;
      }
      const decile = decileOf(done, total);
      if (decile > lastDecile) stream.write(`${line}\n`);
      lastDecile = Math.max(lastDecile, decile);
    },
    /** Ends the redrawn line, so what follows starts on its own. */
    stop(): void {
      if (drawn) stream.write('\n');
    },
  };
}
