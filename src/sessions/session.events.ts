import type { SessionConfig } from './session-config';

/** Event types of a session stream (`session-<id>`). CLI events are kept as `cli.<their type>`. */
export const SessionEvents = {
  created: 'session.created',
  started: 'session.started',
  messageSent: 'session.message_sent',
  interrupted: 'session.interrupted',
  resumed: 'session.resumed',
  destroyed: 'session.destroyed',
  startFailed: 'session.start_failed',
  messageFailed: 'session.message_failed',
  resumeFailed: 'session.resume_failed',
  subAgentsChanged: 'session.sub_agents_changed',
  /** Context prepended to the prompt just sent (see TurnReminders). */
  reminded: 'session.reminded',
} as const;

/** How a CLI `session.event` is kept in the log, as `cli.<type>`. */
export type RecordedCliEventData = {
  /** Set when a sub-agent produced it (protocol 3). */
  agentId?: string;
  cliEventId?: string;
  timestamp?: string;
  payload: Record<string, unknown>;
};

export const CLI_EVENT_PREFIX = 'cli.';

export type SessionStatus = 'starting' | 'active' | 'running' | 'idle' | 'interrupted' | 'failed' | 'destroyed';

export interface SessionCreatedData {
  sessionId: string;
  config: SessionConfig;
}

export interface SessionStartedData {
  protocolVersion: number;
  cliVersion?: string;
}

export interface SessionInterruptedData {
  reason: string;
  wasRunning: boolean;
}
