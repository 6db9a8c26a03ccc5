import type { RecordedTrace } from '../common';
import { type DomainEvent, eventReader } from '../event-store';
import type { CustomAgentConfig, SessionConfig } from './session-config';

/**
 * spec: sessions. Event types of a session stream (`session-<id>`); its decider is `session.decider.ts`.
 * CLI events are kept as `cli.<their type>`. Other contexts append their own events to this stream too
 * (runs, child sessions, routed requests: see `src/event-catalog.ts`); `isSessionEvent` tells these apart.
 */
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
  /** Someone asked to stop the running turn (the CLI's session.abort); the CLI's session.idle ends it. */
  abortRequested: 'session.abort_requested',
  /** Someone said something to a running agent of the session (its main agent or a CLI sub-agent) without stopping it. */
  steered: 'session.steered',
  /** The CLI did not take a steer recorded just before (the sub-agent ended meanwhile, or the CLI failed). */
  steerFailed: 'session.steer_failed',
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

/** The CLI records other contexts read fields of (the CLI's event type, kept as `cli.<type>`). */
export const CliRecords = {
  sessionIdle: 'cli.session.idle',
  assistantMessage: 'cli.assistant.message',
  toolExecutionStart: 'cli.tool.execution_start',
  toolExecutionComplete: 'cli.tool.execution_complete',
  userMessage: 'cli.user.message',
  sessionError: 'cli.session.error',
  abort: 'cli.abort',
} as const;

/** The parts of those records' CLI payloads Switchboard reads (the CLI sends more). */
export interface CliAssistantMessagePayload {
  content: string;
}
export interface CliSessionErrorPayload {
  message: string;
}
export interface CliToolExecutionStartPayload {
  toolCallId: string;
  toolName: string;
  arguments?: unknown;
}
export interface CliToolExecutionCompletePayload {
  toolCallId: string;
  success: boolean;
  result?: { content?: unknown };
  error?: { message?: string };
}

export type SessionStatus = 'starting' | 'active' | 'running' | 'idle' | 'interrupted' | 'failed' | 'destroyed';

/**
 * No turn (nor create) under way: a session the service reloads in one of these at start lost nothing
 * with the CLI that held it, so it is left as it is (on no CLI yet) and its next message resumes it.
 */
export const BETWEEN_TURNS: ReadonlySet<string> = new Set<SessionStatus>(['active', 'idle']);

/** Agents of the team that could not be mapped, and why. */
export type TeamProblems = Array<{ id: string; reason: string }>;

export type SessionCreated = DomainEvent<typeof SessionEvents.created, { sessionId: string; config: SessionConfig }>;
export type SessionStarted = DomainEvent<typeof SessionEvents.started, { protocolVersion?: number; cliVersion?: string; teamAgents: CustomAgentConfig[] }>;
export type SessionStartFailed = DomainEvent<typeof SessionEvents.startFailed, { error: string; problems?: TeamProblems }>;
/**
 * issue 28: `trace` is the span the turn's work nests under: the turn's own (its parent the caller's span
 * when a `traceparent` came), or on a run's thread (`sub-agent-<runId>`) the run's span. Absent on older events.
 */
export type SessionMessageSent = DomainEvent<typeof SessionEvents.messageSent, { prompt: string; trace?: RecordedTrace }>;
export type SessionReminded = DomainEvent<typeof SessionEvents.reminded, { kind: string; text: string; [key: string]: unknown }>;
export type SessionMessageFailed = DomainEvent<typeof SessionEvents.messageFailed, { error: string }>;
export type SessionInterrupted = DomainEvent<typeof SessionEvents.interrupted, { reason: string; wasRunning: boolean }>;
/** `instanceId`: the instance whose CLI took it (absent on older events; the event's metadata names it too). */
export type SessionResumed = DomainEvent<
  typeof SessionEvents.resumed,
  { cliGeneration: number; instanceId?: string; teamAgents: CustomAgentConfig[]; createdInCli?: boolean }
>;
export type SessionResumeFailed = DomainEvent<typeof SessionEvents.resumeFailed, { error: string; problems?: TeamProblems }>;
export type SessionDestroyed = DomainEvent<typeof SessionEvents.destroyed, { reason?: string; cliError?: string }>;
export type SessionSubAgentsChanged = DomainEvent<typeof SessionEvents.subAgentsChanged, { subAgents: string[] }>;
export type SessionAbortRequested = DomainEvent<typeof SessionEvents.abortRequested, Record<string, never>>;
/** Which agent of the session a steer reaches: the main agent, or one of its CLI sub-agents (by its agentId). */
export type SteerTarget = 'main' | 'subagent';
export type SessionSteered = DomainEvent<
  typeof SessionEvents.steered,
  {
    message: string;
    target: SteerTarget;
    /** The CLI sub-agent's agentId (its `childSessionId`), when `target` is `subagent`. */
    subagentId?: string;
    agentName: string;
    /** Who steered: `console` or `api` (the event's metadata.actor too). */
    steeredBy: string;
    /** Set when the steer was sent to a run (`POST /api/runs/:id/steer`): the run whose thread this session is. */
    runId?: string;
  }
>;
export type SessionSteerFailed = DomainEvent<typeof SessionEvents.steerFailed, { error: string; target: SteerTarget; subagentId?: string }>;
/** A CLI `session.event` as recorded: a fact the CLI reported, never decided here. */
export type SessionCliEventRecorded = DomainEvent<`${typeof CLI_EVENT_PREFIX}${string}`, RecordedCliEventData>;
/** A recorded CLI event whose payload is read: `payload` is the CLI's (`RecordedCliEventData.payload`), of this shape. */
export type CliRecord<Type extends string, Payload> = DomainEvent<Type, Omit<RecordedCliEventData, 'payload'> & { payload: Payload }>;
export type CliRecordEvent =
  | CliRecord<typeof CliRecords.sessionIdle, Record<string, unknown>>
  | CliRecord<typeof CliRecords.assistantMessage, CliAssistantMessagePayload>
  | CliRecord<typeof CliRecords.toolExecutionStart, CliToolExecutionStartPayload>
  | CliRecord<typeof CliRecords.toolExecutionComplete, CliToolExecutionCompletePayload>
  | CliRecord<typeof CliRecords.userMessage, Record<string, unknown>>
  | CliRecord<typeof CliRecords.sessionError, CliSessionErrorPayload>
  | CliRecord<typeof CliRecords.abort, Record<string, unknown>>;

export type SessionEvent =
  | SessionCreated
  | SessionStarted
  | SessionStartFailed
  | SessionMessageSent
  | SessionReminded
  | SessionMessageFailed
  | SessionInterrupted
  | SessionResumed
  | SessionResumeFailed
  | SessionDestroyed
  | SessionSubAgentsChanged
  | SessionAbortRequested
  | SessionSteered
  | SessionSteerFailed
  | SessionCliEventRecorded;

const SESSION_EVENT_TYPES: ReadonlySet<string> = new Set(Object.values(SessionEvents));

/** Session streams also carry other contexts' events (runs, child mappings): this tells the session's own apart. */
export function isSessionEvent<E extends { type: string }>(event: E): event is E & SessionEvent {
  return SESSION_EVENT_TYPES.has(event.type) || event.type.startsWith(CLI_EVENT_PREFIX);
}

/** A session's own event as another context reads it: by its type, through these payload types. */
export const readSessionEvent = eventReader<Exclude<SessionEvent, SessionCliEventRecorded>>(Object.values(SessionEvents));
/** One of `CliRecords` as another context reads it; its `payload` through `fieldsOf<Cli…Payload>`. */
export const readCliRecord = eventReader<CliRecordEvent>(Object.values(CliRecords));
