import { type DomainEvent, eventGuard } from '../event-store';
import type { AgentFields } from './agent-definition';

/** spec: agent-teams. The events of an agent's stream (`agent-<id>`); its decider is `agent.decider.ts`. */
export const AgentEvents = {
  created: 'agent.created',
  updated: 'agent.updated',
  deleted: 'agent.deleted',
} as const;

export interface AgentCreatedData {
  id: string;
  fields: AgentFields;
}
/** Only the fields that changed, with their new values; an optional field removed is null (JSON has no undefined). */
export type AgentFieldChanges = { [K in keyof AgentFields]?: AgentFields[K] | null };
export interface AgentUpdatedData {
  id: string;
  changes: AgentFieldChanges;
}
export interface AgentDeletedData {
  id: string;
}

export type AgentEvent =
  | DomainEvent<typeof AgentEvents.created, AgentCreatedData>
  | DomainEvent<typeof AgentEvents.updated, AgentUpdatedData>
  | DomainEvent<typeof AgentEvents.deleted, AgentDeletedData>;

export const isAgentEvent = eventGuard<AgentEvent>(Object.values(AgentEvents));
