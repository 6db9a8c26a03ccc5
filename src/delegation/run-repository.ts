import { Injectable } from '@nestjs/common';
import { handleCommand, EventStore, type EventMetadata, type StreamAppend, runStreamId } from '../event-store';
import { foreignSessionAppend } from '../sessions';
import { foldRun, type RunCommand, runDecider, type RunState } from './run.decider';
import { UnknownRunError } from './run.errors';
import { API_THREAD, ENDED_STATUSES, type RunEndedEvent, RunEvents } from './run.events';

/**
 * Loads a run by folding its stream; commands go through handleCommand (optimistic concurrency, one
 * retry). When a command ends a run, `run.ended` goes to the owner session's stream in the same
 * commit, so the owner is told exactly when the run's status changes (also after a crash: no gap).
 */
@Injectable()
export class RunRepository {
  constructor(private readonly store: EventStore) {}

  async load(runId: string): Promise<RunState | undefined> {
    return foldRun(await this.store.readStream(runStreamId(runId)));
  }

  async get(runId: string): Promise<RunState> {
    const state = await this.load(runId);
    if (!state) throw new UnknownRunError(runId);
    return state;
  }

  /** Decides against the current stream and appends; one retry when another writer got in between. */
  async decide(runId: string, command: RunCommand, metadata: EventMetadata = {}): Promise<RunState> {
    const { state } = await handleCommand(this.store, runDecider, runStreamId(runId), command, {
      metadata: (after) => ({ correlationId: after?.started.rootRunId, ...metadata }),
      alsoAppend: (before, after) => ownerNotice(runId, before, after, metadata),
    });
    // Only `start` may decide on an absent run, and it always emits: a state is there.
    if (!state) throw new UnknownRunError(runId);
    return state;
  }
}

/** `run.ended` for the owner session when a running run ended (the API thread has no session to tell). */
function ownerNotice(runId: string, before: RunState | undefined, after: RunState | undefined, metadata: EventMetadata): StreamAppend[] {
  if (!after || before?.status !== 'running' || !ENDED_STATUSES.includes(after.status)) return [];
  const owner = after.started.ownerThreadId;
  if (owner === API_THREAD) return [];
  const ended: RunEndedEvent = {
    type: RunEvents.ended,
    data: {
      runId,
      agentId: after.started.agentId,
      status: after.status,
      ...(after.output !== null ? { output: after.output } : {}),
      ...(after.error !== null ? { error: after.error } : {}),
    },
  };
  return [foreignSessionAppend(owner, [{ type: ended.type, data: { ...ended.data }, metadata }])];
}
