import { RunHandle, RunHandleTable } from './run-handle-table';

/** Whether a promise has settled by the time queued microtasks have run. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe('RunHandleTable', () => {
  let table: RunHandleTable;

  beforeEach(() => {
    table = new RunHandleTable();
  });

  it('opens a live handle that get and has return', () => {
    const handle = table.open('r1', 'session-1', 1);
    expect(handle).toBeInstanceOf(RunHandle);
    expect(handle).toMatchObject({ runId: 'r1', ownerThreadId: 'session-1', epoch: 1, stopping: false });
    expect(table.get('r1')).toBe(handle);
    expect(table.has('r1')).toBe(true);
    expect(table.size).toBe(1);
  });

  it('knows nothing of a run it never opened', () => {
    expect(table.get('ghost')).toBeUndefined();
    expect(table.has('ghost')).toBe(false);
    expect(table.size).toBe(0);
  });

  it('keeps one handle per run', () => {
    const a = table.open('r1', 'session-1', 1);
    const b = table.open('r2', 'session-1', 1);
    expect(table.size).toBe(2);
    expect(table.get('r1')).toBe(a);
    expect(table.get('r2')).toBe(b);
  });

  it('closes a handle: removed from the table and settled', async () => {
    const handle = table.open('r1', 'session-1', 1);
    expect(await isSettled(handle.settled)).toBe(false);
    table.close(handle);
    expect(table.get('r1')).toBeUndefined();
    expect(table.has('r1')).toBe(false);
    expect(table.size).toBe(0);
    expect(await isSettled(handle.settled)).toBe(true);
  });

  it('does not cancel a handle when closing it', () => {
    const handle = table.open('r1', 'session-1', 1);
    table.close(handle);
    expect(handle.stopping).toBe(false);
  });

  it('lets a newer launch replace the older handle and cancels the older one', () => {
    const first = table.open('r1', 'session-1', 1);
    const second = table.open('r1', 'session-1', 2);
    expect(table.get('r1')).toBe(second);
    expect(table.size).toBe(1);
    expect(first.stopping).toBe(true);
    expect(first.cancellation.signal.reason).toBe('superseded by a newer launch');
    expect(second.stopping).toBe(false);
  });

  it('refuses to open the same launch twice, or an older one, and leaves the current handle alone', () => {
    const current = table.open('r1', 'session-1', 2);
    expect(() => table.open('r1', 'session-1', 2)).toThrow('Run r1 already has a live handle for launch 2');
    expect(() => table.open('r1', 'session-1', 1)).toThrow('Run r1 already has a live handle for launch 2');
    expect(table.get('r1')).toBe(current);
    expect(current.stopping).toBe(false);
  });

  it('may open a run again, at any epoch, once its handle was closed', () => {
    table.close(table.open('r1', 'session-1', 3));
    const again = table.open('r1', 'session-1', 1);
    expect(table.get('r1')).toBe(again);
  });

  it('ignores closing a stale handle: the current launch stays, though the stale one settles', async () => {
    const stale = table.open('r1', 'session-1', 1);
    const current = table.open('r1', 'session-1', 2);
    table.close(stale);
    expect(table.get('r1')).toBe(current);
    expect(table.size).toBe(1);
    expect(await isSettled(stale.settled)).toBe(true);
    expect(await isSettled(current.settled)).toBe(false);
  });
});

describe('RunHandle', () => {
  it('cancels once, keeping the first reason', () => {
    const handle = new RunHandle('r1', 'api', 1);
    const onAbort = jest.fn();
    handle.cancellation.signal.addEventListener('abort', onAbort);
    handle.cancel('stopped by api');
    handle.cancel('timeout');
    expect(handle.stopping).toBe(true);
    expect(handle.cancellation.signal.reason).toBe('stopped by api');
    expect(onAbort).toHaveBeenCalledTimes(1);
  });

  it('settles when marked settled', async () => {
    const handle = new RunHandle('r1', 'api', 1);
    expect(await isSettled(handle.settled)).toBe(false);
    handle.markSettled();
    expect(await isSettled(handle.settled)).toBe(true);
  });
});
