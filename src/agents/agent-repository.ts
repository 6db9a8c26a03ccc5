import { Injectable } from '@nestjs/common';
import { EventStore } from '../event-store/event-store';
import { ExpectedVersionConflictError } from '../event-store/event-store.errors';
import type { NewEvent, StreamAppend } from '../event-store/event-store.types';
import { type AgentCommand, type AgentState, decideAgent, evolveAgent, initialAgentState } from './agent.decider';
import { agentStreamId } from '../event-store/stream-ids';

/** Loads an agent's state by folding its stream, and turns a decision into an append at that version. */
@Injectable()
export class AgentRepository {
  constructor(private readonly store: EventStore) {}

  load(agentId: string): { state: AgentState; version: number } {
    const events = this.store.readStream(agentStreamId(agentId));
    return { state: events.reduce(evolveAgent, initialAgentState()), version: events.length };
  }

  /** decide() against the current state; the append is guarded by the version that state was read at. */
  plan(command: AgentCommand, metadata: NewEvent['metadata'], expectedVersion?: number): StreamAppend | undefined {
    const { state, version } = this.load(command.id);
    const events = decideAgent(command, state).map((e) => ({ ...e, metadata }));
    // A stale If-Match is a conflict even when the command changes nothing (no append would catch it).
    if (expectedVersion !== undefined && expectedVersion !== version) {
      throw new ExpectedVersionConflictError(agentStreamId(command.id), expectedVersion, version);
    }
    if (events.length === 0) return undefined;
    return { streamId: agentStreamId(command.id), expectedVersion: expectedVersion ?? version, events };
  }
}
