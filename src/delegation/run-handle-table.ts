import { Injectable } from '@nestjs/common';

/** A live launch of a run: the in-memory half of the spec's state layers. */
export class RunHandle {
  /** Aborted when the run is stopped (by a caller, a cascade or its timeout): the executor stops waiting. */
  readonly cancellation = new AbortController();
  private settle!: () => void;
  /** Resolves once this launch's final event (completed, failed, stopped, interrupted) is in the log. */
  readonly settled = new Promise<void>((resolve) => (this.settle = resolve));

  constructor(
    readonly runId: string,
    readonly ownerThreadId: string,
    readonly epoch: number,
  ) {}

  get stopping(): boolean {
    return this.cancellation.signal.aborted;
  }

  cancel(reason: string): void {
    if (!this.stopping) this.cancellation.abort(reason);
  }

  markSettled(): void {
    this.settle();
  }
}

/**
 * spec: SubAgentHandleTable. Live handles keyed by run id, one per run: a resume opens a handle with a
 * higher epoch and replaces the old one; closing with an old epoch is ignored, so a late end of an
 * earlier launch never removes the current one.
 */
@Injectable()
export class RunHandleTable {
  private readonly handles = new Map<string, RunHandle>();

  open(runId: string, ownerThreadId: string, epoch: number): RunHandle {
    const current = this.handles.get(runId);
    if (current && current.epoch >= epoch) {
      throw new Error(`Run ${runId} already has a live handle for launch ${current.epoch}`);
    }
    current?.cancel('superseded by a newer launch');
    const handle = new RunHandle(runId, ownerThreadId, epoch);
    this.handles.set(runId, handle);
    return handle;
  }

  get(runId: string): RunHandle | undefined {
    return this.handles.get(runId);
  }

  has(runId: string): boolean {
    return this.handles.has(runId);
  }

  close(handle: RunHandle): void {
    if (this.handles.get(handle.runId) === handle) this.handles.delete(handle.runId);
    handle.markSettled();
  }

  get size(): number {
    return this.handles.size;
  }
}
