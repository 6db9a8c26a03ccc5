import { SYSTEM_ACTOR } from '../common';
import { handleCommand, type EventStore, type EventMetadata, sessionStreamId } from '../event-store';
import type { LiveSession } from './live-session';
import { SESSION_COMMAND_RETRIES, type SessionCommand, sessionDecider } from './session.decider';
import type { SessionEvent } from './session.events';

/**
 * The metadata of every event a session command records: who asked, and the session as correlation id,
 * so create, message, resume, destroy and interrupt of one session are found together in the audit log.
 * A command that takes the session live (create, start, resume) also names the instance whose CLI
 * holds it from then on: the `sessions` read model keeps it as `owner_instance`.
 */
export function sessionCommandMetadata(sessionId: string, actor: string | undefined, instanceId?: string): EventMetadata {
  // Switchboard's own session commands (an interrupt after the CLI's exit) are the system's, wherever they run.
  return { actor, correlationId: sessionId, ...(instanceId ? { instanceId } : {}), ...(actor === 'switchboard' ? { by: SYSTEM_ACTOR } : {}) };
}

/**
 * A command on a live session: decided, in its turn after the session's earlier commands, from the state
 * and version the previous one left (only the events recorded since are read, so a long session does not
 * reread its whole stream), appended at the version read (the CLI's records held meanwhile), then
 * applied to the live session.
 */
export async function decideOnSession(
  store: Pick<EventStore, 'readStream' | 'appendMany'>,
  session: LiveSession,
  command: SessionCommand,
  actor: string | undefined,
  /** Only when the command takes the session live on this instance (start, resume). */
  instanceId?: string,
): Promise<SessionEvent[]> {
  return session.whileDeciding(async () => {
    const result = await handleCommand(store, sessionDecider, sessionStreamId(session.sessionId), command, {
      metadata: sessionCommandMetadata(session.sessionId, actor, instanceId),
      retries: SESSION_COMMAND_RETRIES,
      from: session.commandBase,
    });
    session.settleCommand(result);
    session.apply(result.events);
    return result.events;
  });
}
