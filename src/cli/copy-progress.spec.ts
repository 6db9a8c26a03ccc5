import { decileOf, formatDuration, formatProgress, progressPrinter } from './copy-progress';

describe('copy progress', () => {
  it('formats copied/total, percent, rate and ETA', () => {
    expect(formatProgress({ done: 12_000, total: 50_000, elapsedMs: 2_000 })).toBe('12,000/50,000 events  24%  6,000 events/s  ETA 0:06');
  });

  it('shows no rate nor ETA before anything moved, and 100% for an empty log', () => {
    expect(formatProgress({ done: 0, total: 10, elapsedMs: 0 })).toBe('0/10 events  0%  - events/s  ETA -');
    expect(formatProgress({ done: 0, total: 0, elapsedMs: 5 })).toBe('0/0 events  100%  - events/s  ETA -');
  });

  it('leaves out what a resumed copy found done from the rate', () => {
    expect(formatProgress({ done: 9_000, total: 10_000, elapsedMs: 1_000, doneAtStart: 8_000 })).toBe(
      '9,000/10,000 events  90%  1,000 events/s  ETA 0:01',
    );
  });

  it('formats durations as m:ss or h:mm:ss', () => {
    expect(formatDuration(5)).toBe('0:05');
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(3725)).toBe('1:02:05');
  });

  it('counts tenths, capped at 10', () => {
    expect([0, 99, 100, 999, 1000, 1200].map((n) => decileOf(n, 1000))).toEqual([0, 0, 1, 9, 10, 10]);
    expect(decileOf(0, 0)).toBe(10);
  });

  function fakeStream(isTTY: boolean) {
    const writes: string[] = [];
    return { writes, stream: { isTTY, write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream };
  }

  it('off a terminal, prints a line each time a tenth is reached', () => {
    const { writes, stream } = fakeStream(false);
    let t = 0;
    const printer = progressPrinter(stream, 'copy', () => t);
    for (let done = 0; done <= 1000; done += 50) {
      t += 10;
      printer.update(done, 1000);
    }
    printer.stop();
    expect(writes).toHaveLength(11);
    expect(writes.every((line) => line.startsWith('copy ') && line.endsWith('\n'))).toBe(true);
    expect(writes[10]).toContain('1,000/1,000 events  100%');
  });

  it('on a terminal, redraws one line and ends it at stop', () => {
    const { writes, stream } = fakeStream(true);
    const printer = progressPrinter(stream, 'copy', () => 0);
    printer.update(1, 4);
    printer.update(2, 4);
    printer.stop();
    expect(writes.slice(0, 2).every((w) => w.startsWith('\rcopy ') && w.endsWith('\x1b[K'))).toBe(true);
    expect(writes[2]).toBe('\n');
  });
});
