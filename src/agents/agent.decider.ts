import { assertStorableJson, MAX_STORED_DOCUMENT_BYTES } from '../common';
import type { Decider } from '../event-store';
import { AGENT_FIELD_NAMES, type AgentFields, OPTIONAL_AGENT_FIELDS } from './agent-definition';
import { AgentAlreadyExistsError, AgentNotFoundError } from './agent.errors';
import { type AgentEvent, AgentEvents, type AgentFieldChanges, isAgentEvent } from './agent.events';

/** spec: agent-teams. An agent's stream (`agent-<id>`) as emmett-style pure pieces: initialState, evolve, decide. */
export type AgentState = { status: 'absent' } | { status: 'active'; id: string; fields: AgentFields } | { status: 'deleted'; id: string };

export const initialAgentState = (): AgentState => ({ status: 'absent' });

export type AgentCommand =
  | { type: 'CreateAgent'; id: string; fields: AgentFields }
  | { type: 'UpdateAgent'; id: string; fields: AgentFields }
  | { type: 'DeleteAgent'; id: string };

function evolveAgent(state: AgentState, event: AgentEvent): AgentState {
  switch (event.type) {
    case AgentEvents.created:
      return { status: 'active', id: event.data.id, fields: event.data.fields };
    case AgentEvents.updated:
      return state.status === 'active' ? { ...state, fields: applyAgentChanges(state.fields, event.data.changes) } : state;
    case AgentEvents.deleted:
      return state.status === 'active' ? { status: 'deleted', id: state.id } : state;
    default:
      return state;
  }
}

/**
 * A deleted id may be created again (teams re-import agents); an update that changes nothing emits
 * nothing; a definition weighs at most MAX_STORED_DOCUMENT_BYTES as JSON (413 naming the agent).
 */
function decideAgent(command: AgentCommand, state: AgentState): AgentEvent[] {
  if (command.type !== 'DeleteAgent') assertStorableJson(['agents', command.id], command.fields, MAX_STORED_DOCUMENT_BYTES);
  switch (command.type) {
    case 'CreateAgent':
      if (state.status === 'active') throw new AgentAlreadyExistsError(command.id);
      return [{ type: AgentEvents.created, data: { id: command.id, fields: command.fields } }];
    case 'UpdateAgent': {
      if (state.status !== 'active') throw new AgentNotFoundError(command.id);
      const changes = changedFields(state.fields, command.fields);
      if (Object.keys(changes).length === 0) return [];
      return [{ type: AgentEvents.updated, data: { id: command.id, changes } }];
    }
    case 'DeleteAgent':
      if (state.status !== 'active') throw new AgentNotFoundError(command.id);
      return [{ type: AgentEvents.deleted, data: { id: command.id } }];
  }
}

/** An agent's stream (`agent-<id>`). */
export const agentDecider: Decider<AgentState, AgentCommand, AgentEvent> = {
  isEvent: isAgentEvent,
  initialState: initialAgentState,
  evolve: evolveAgent,
  decide: decideAgent,
};

/** An update's changes over the fields: the one rule both the decider and the read model apply. */
export function applyAgentChanges(fields: AgentFields, changes: AgentFieldChanges): AgentFields {
  const next: Record<string, unknown> = { ...fields, ...changes };
  // An optional field an update removed is recorded as null (JSON has no undefined): unset it again.
  for (const name of OPTIONAL_AGENT_FIELDS) if (next[name] === null) delete next[name];
  return next as AgentFields;
}

function changedFields(before: AgentFields, after: AgentFields): AgentFieldChanges {
  const changes: AgentFieldChanges = {};
  for (const name of AGENT_FIELD_NAMES) {
    if (JSON.stringify(before[name]) !== JSON.stringify(after[name])) {
      // A PUT replaces the definition: a field it leaves out is removed, recorded as null so the event keeps it.
      (changes as Record<string, unknown>)[name] = after[name] ?? null;
    }
  }
  return changes;
}
