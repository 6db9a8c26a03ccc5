import { type DomainEvent, eventGuard, eventReader } from '../event-store';

/** Domain events of the resolver, appended to the PARENT session's stream. */
export const ChildSessionEvents = {
  subagentStarted: 'subagent.started',
  subagentCompleted: 'subagent.completed',
  subagentFailed: 'subagent.failed',
  childMapped: 'child_session.mapped',
} as const;

/** Which field of the CLI's traffic named the child. */
export type ChildIdSource = 'remoteSessionId' | 'agentId' | 'ownerNativeSessionId' | 'ownerSessionId' | 'toolCallId';

export interface SubagentStartedData {
  parentSessionId: string;
  childSessionId: string;
  via: ChildIdSource;
  toolCallId: string;
  agentName: string;
  agentDisplayName?: string;
  model?: string;
  executionMode?: string;
}

export interface SubagentEndedData {
  parentSessionId: string;
  childSessionId?: string;
  toolCallId: string;
  agentName: string;
  error?: string;
  totalTokens?: number;
  totalToolCalls?: number;
  durationMs?: number;
}

export interface ChildMappedData {
  parentSessionId: string;
  childSessionId: string;
  agentName: string;
  via: ChildIdSource;
}

/** The resolver's events on a parent session's stream, as a typed union. */
export type ChildSessionEvent =
  | DomainEvent<typeof ChildSessionEvents.subagentStarted, SubagentStartedData>
  | DomainEvent<typeof ChildSessionEvents.subagentCompleted, SubagentEndedData>
  | DomainEvent<typeof ChildSessionEvents.subagentFailed, SubagentEndedData>
  | DomainEvent<typeof ChildSessionEvents.childMapped, ChildMappedData>;

export const isChildSessionEvent = eventGuard<ChildSessionEvent>(Object.values(ChildSessionEvents));
/** A child-session event as another context reads it: by its type, through these payload types. */
export const readChildSessionEvent = eventReader<ChildSessionEvent>(Object.values(ChildSessionEvents));
