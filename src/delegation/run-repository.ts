import { Injectable } from '@nestjs/common';
import { ExpectedVersionConflictError } from '../event-store/event-store.errors';
import { EventStore } from '../event-store/event-store';
import type { EventMetadata, StreamAppend } from '../event-store/event-store.types';
import { runStreamId, sessionStreamId } from '../event-store/stream-ids';
import { decideRun, evolveRun, foldRun, type RunCommand, type RunState } from './run.decider';
import { UnknownRunError } from './run.errors';
import { API_THREAD, ENDED_STATUSES, type RunEndedData, RunEvents } from './run.events';

/**
 * Loads a run by folding its stream and appends what the decider returns, with optimistic concurrency.
 * When a command ends a run, `run.ended` goes to the owner session's stream in the same commit, so the
 * owner is told exactly when the run's status changes (also after a crash: there is no gap between them).
 */
@Injectable()
export class RunRepository {
  constructor(private readonly store: EventStore) {}

  load(runId: string): RunState | undefined {
    return foldRun(this.store.readStream(runStreamId(runId)));
  }

  get(runId: string): RunState {
    const state = this.load(runId);
    if (!state) throw new UnknownRunError(runId);
    return state;
  }

  /** Decides against the current stream and appends; one retry when another writer got in between. */
  async decide(runId: string, command: RunCommand, metadata: EventMetadata = {}): Promise<RunState> {
    for (let attempt = 0; ; attempt++) {
      const events = this.store.readStream(runStreamId(runId));
      const state = foldRun(events);
      const decided = decideRun(state, command);
      if (decided.length === 0) return state as RunState;
      const next = decided.reduce<RunState | undefined>(evolveRun, state) as RunState;
      const parts: StreamAppend[] = [
        {
          streamId: runStreamId(runId),
          expectedVersion: events.length === 0 ? 'no_stream' : events.length,
          events: decided.map((e) => ({ type: e.type, data: { ...e.data }, metadata: { correlationId: next.started.rootRunId, ...metadata } })),
        },
      ];
      const owner = next.started.ownerThreadId;
      if (state?.status === 'running' && ENDED_STATUSES.includes(next.status) && owner !== API_THREAD) {
        const ended: RunEndedData = {
          runId,
          agentId: next.started.agentId,
          status: next.status,
          ...(next.output !== null ? { output: next.output } : {}),
          ...(next.error !== null ? { error: next.error } : {}),
        };
        parts.push({ streamId: sessionStreamId(owner), expectedVersion: 'any', events: [{ type: RunEvents.ended, data: { ...ended }, metadata }] });
      }
      try {
        await this.store.appendMany(parts);
        return next;
      } catch (error) {
        if (error instanceof ExpectedVersionConflictError && attempt === 0) continue;
        throw error;
      }
    }
  }
}
