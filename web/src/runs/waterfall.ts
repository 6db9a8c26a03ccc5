import type { RunNode } from './run-tree';

// The waterfall's geometry: each run a bar from its start to its end (to now while it runs) on one time
// axis shared by the subtree, in percent of the axis so the bars scale with the panel's width.

export interface Bar {
  runId: string;
  /** Percent of the axis from its left edge. */
  left: number;
  /** Percent of the axis, at least MIN_WIDTH so a short run is still visible. */
  width: number;
  running: boolean;
}

export interface Axis {
  start: number;
  end: number;
}

/** The narrowest bar, in percent: a run of a few ms still shows. */
export const MIN_WIDTH = 0.5;

/** From the earliest start to the latest end (now while any runs), never empty. */
export function axisOf(runs: readonly RunNode[], now: number): Axis {
  let start = Infinity;
  let end = -Infinity;
  for (const run of runs) {
    start = Math.min(start, Date.parse(run.startedAt));
    end = Math.max(end, run.endedAt ? Date.parse(run.endedAt) : now);
  }
  if (!Number.isFinite(start)) return { start: now, end: now + 1 };
  return { start, end: Math.max(end, start + 1) };
}

export function barOf(run: RunNode, axis: Axis, now: number): Bar {
  const span = axis.end - axis.start;
  const from = Date.parse(run.startedAt);
  const to = run.endedAt ? Date.parse(run.endedAt) : Math.max(now, from);
  const left = clamp(((from - axis.start) / span) * 100, 0, 100 - MIN_WIDTH);
  const width = clamp(((to - from) / span) * 100, MIN_WIDTH, 100 - left);
  return { runId: run.runId, left, width, running: !run.endedAt };
}

/** Tick marks for the axis: about `count` round times (ms from the start), as labels. */
export function ticksOf(axis: Axis, count = 5): Array<{ at: number; label: string }> {
  const span = axis.end - axis.start;
  const steps = [100, 250, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000];
  const step = steps.find((s) => span / s <= count) ?? Math.ceil(span / count / 3_600_000) * 3_600_000;
  const ticks: Array<{ at: number; label: string }> = [];
  for (let t = 0; t <= span; t += step) ticks.push({ at: (t / span) * 100, label: tickLabel(t) });
  return ticks;
}

function tickLabel(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${ms / 1000} s`;
  if (ms < 3_600_000) return `${ms / 60_000} min`;
  return `${ms / 3_600_000} h`;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
