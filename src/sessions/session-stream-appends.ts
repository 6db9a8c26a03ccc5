import { type NewEvent, type StreamAppend, sessionStreamId } from '../event-store';
import { CLI_EVENT_PREFIX } from './session.events';

/**
 * The events that are not the session decider's but land on a session's stream, appended without a
 * version check (`'any'`), and the context that appends each. Literals, not the owners' constants:
 * those contexts import sessions, not the other way round. Each owner's constant is typed against
 * this list where it appends (a new type there does not compile until it is added here).
 */
export const SESSION_FOREIGN_EVENT_TYPES = {
  // child-sessions: the CLI's sub-agent traffic, mapped to the child sessions it names
  'subagent.started': 'child-sessions',
  'subagent.completed': 'child-sessions',
  'subagent.failed': 'child-sessions',
  'child_session.mapped': 'child-sessions',
  // tool-dispatch: the audit of requests routed for the session and its children
  'tool_call.routed': 'tool-dispatch',
  'tool_call.denied': 'tool-dispatch',
  'permission.decided': 'tool-dispatch',
  'hook.invoked': 'tool-dispatch',
  'user_input.requested': 'tool-dispatch',
  'user_input.answered': 'tool-dispatch',
  // delegation: what the session's runs tell it
  'run.ended': 'delegation',
  'run.progress': 'delegation',
  'run.delegation_refused': 'delegation',
} as const;

/** Every `cli.<type>` record the session lifecycle copies from the CLI (its own context's, but not decided either). */
type CliRecordType = `${typeof CLI_EVENT_PREFIX}${string}`;

export type SessionForeignEventType = keyof typeof SESSION_FOREIGN_EVENT_TYPES | CliRecordType;

export interface ForeignSessionEvent extends NewEvent {
  type: SessionForeignEventType;
}

export function isSessionForeignEventType(type: string): type is SessionForeignEventType {
  return Object.hasOwn(SESSION_FOREIGN_EVENT_TYPES, type) || type.startsWith(CLI_EVENT_PREFIX);
}

/**
 * The sessions context's port for events other contexts add to a session's stream: the stream's part
 * of the caller's `appendMany` (alone, or atomic with the caller's own streams), without a version check
 * (they are facts of their owners, not decisions on the session's state; the session decider ignores
 * them). Only the types in SESSION_FOREIGN_EVENT_TYPES: anything else is a programming error, thrown
 * before anything is appended.
 */
export function foreignSessionAppend(sessionId: string, events: readonly ForeignSessionEvent[]): StreamAppend {
  const refused = events.filter((event) => !isSessionForeignEventType(event.type)).map((event) => event.type);
  if (refused.length > 0) {
    throw new Error(
      `${refused.join(', ')} may not be appended to session ${sessionId}'s stream from outside its decider; add it to SESSION_FOREIGN_EVENT_TYPES (src/sessions/session-stream-appends.ts) if another context owns it`,
    );
  }
  return { streamId: sessionStreamId(sessionId), expectedVersion: 'any', events: [...events] };
}
