import type { RunNode } from './run-tree';
import { axisOf, barOf, MIN_WIDTH, ticksOf } from './waterfall';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
function run(runId: string, from: number, to?: number): RunNode {
  return {
    runId,
    parentRunId: null,
    agentId: 'a',
    prompt: '',
    background: false,
    depth: 0,
    status: to === undefined ? 'running' : 'completed',
    epoch: 1,
    startedAt: new Date(T0 + from).toISOString(),
    endedAt: to === undefined ? undefined : new Date(T0 + to).toISOString(),
    inputTokens: 0,
    outputTokens: 0,
    toolCalls: 0,
  };
}

describe('waterfall geometry', () => {
  it('places each run on the axis from the first start to the last end', () => {
    const runs = [run('root', 0, 10_000), run('a', 2000, 4000), run('b', 5000, 10_000)];
    const axis = axisOf(runs, T0 + 60_000);
    expect(axis).toEqual({ start: T0, end: T0 + 10_000 });
    expect(runs.map((r) => barOf(r, axis, T0 + 60_000))).toEqual([
      { runId: 'root', left: 0, width: 100, running: false },
      { runId: 'a', left: 20, width: 20, running: false },
      { runId: 'b', left: 50, width: 50, running: false },
    ]);
  });

  it('grows a running bar with the clock, and the axis with it', () => {
    const runs = [run('root', 0), run('done', 0, 1000)];
    const early = axisOf(runs, T0 + 2000);
    const later = axisOf(runs, T0 + 4000);
    expect(barOf(runs[0], early, T0 + 2000)).toMatchObject({ width: 100, running: true });
    expect(barOf(runs[1], early, T0 + 2000).width).toBe(50);
    expect(barOf(runs[1], later, T0 + 4000).width).toBe(25);
  });

  it('keeps a run of a few ms visible and inside the axis', () => {
    const runs = [run('long', 0, 100_000), run('blip', 100_000, 100_001)];
    const axis = axisOf(runs, T0);
    const blip = barOf(runs[1], axis, T0);
    expect(blip.width).toBe(MIN_WIDTH);
    expect(blip.left + blip.width).toBeLessThanOrEqual(100);
  });

  it('has an axis even before any run is known, and round tick marks', () => {
    expect(axisOf([], T0)).toEqual({ start: T0, end: T0 + 1 });
    const ticks = ticksOf({ start: T0, end: T0 + 10_000 });
    expect(ticks.map((t) => t.label)).toEqual(['0', '2 s', '4 s', '6 s', '8 s', '10 s']);
    expect(ticks[5].at).toBe(100);
  });
});
