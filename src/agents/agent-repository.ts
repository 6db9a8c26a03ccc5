import { Injectable } from '@nestjs/common';
import { handleCommand, planCommand, EventStore, type EventMetadata, type StreamAppend, agentStreamId } from '../event-store';
import { type AgentCommand, agentDecider } from './agent.decider';

/** An agent's commands through the agent decider: one at a time (handle), or planned for an all-or-nothing import (plan). */
@Injectable()
export class AgentRepository {
  constructor(private readonly store: EventStore) {}

  /** Decides and appends; `expectedVersion` is the If-Match the caller read (a stale one is a conflict). */
  async handle(command: AgentCommand, metadata: EventMetadata, expectedVersion?: number): Promise<void> {
    await handleCommand(this.store, agentDecider, agentStreamId(command.id), command, { metadata, expectedVersion });
  }

  /** decide() against the current state without appending: the append, guarded by the version that state was read at. */
  async plan(command: AgentCommand, metadata: EventMetadata): Promise<StreamAppend | undefined> {
    return (await planCommand(this.store, agentDecider, agentStreamId(command.id), command, { metadata })).appends[0];
  }
}
