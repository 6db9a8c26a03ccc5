import type { RecordedTrace } from '../common';
import type { Decider } from '../event-store';
import type { CustomAgentConfig, SessionConfig } from './session-config';
import { SessionNotFoundError, SessionNotLiveError, SessionStateError, SubagentNotFoundError } from './session.errors';
import {
  CLI_EVENT_PREFIX,
  isSessionEvent,
  type RecordedCliEventData,
  type SessionEvent,
  SessionEvents,
  type SessionReminded,
  type SessionStarted,
  type SessionStatus,
  type TeamProblems,
} from './session.events';

/** spec: sessions. A session's stream (`session-<id>`) as emmett-style pure pieces: initialState, evolve, decide. */

const CLI_IDLE = `${CLI_EVENT_PREFIX}session.idle`;
/** The statuses the main agent's `session.idle` ends a turn from (to idle); a session starting, interrupted or over stays so. */
export const TURN_ENDS_FROM: readonly SessionStatus[] = ['running', 'active', 'idle'];
const STATE_EVENT_TYPES: ReadonlySet<string> = new Set([
  SessionEvents.created,
  SessionEvents.started,
  SessionEvents.startFailed,
  SessionEvents.messageSent,
  SessionEvents.messageFailed,
  SessionEvents.interrupted,
  SessionEvents.resumed,
  SessionEvents.resumeFailed,
  SessionEvents.destroyed,
  SessionEvents.subAgentsChanged,
]);

/** Whether `evolve` can change anything for this event: most session events (CLI records) never do. */
export function changesSessionState(event: { type: string; data: unknown }): boolean {
  if (event.type === CLI_IDLE) return !(event.data as RecordedCliEventData).agentId;
  return STATE_EVENT_TYPES.has(event.type);
}

export interface SessionState {
  /** `absent` until `session.created`. */
  status: SessionStatus | 'absent';
  /** Why it has its status, when the event said (a failure, an interruption, a destroy reason). */
  statusReason?: string;
  config?: SessionConfig;
  /** The team's sub-agents as mapped at the last start or resume (the CLI's customAgents beyond the inline ones). */
  teamAgents: CustomAgentConfig[];
  /** Whether the CLI ever created it (`session.started`). */
  cliCreated: boolean;
  /**
   * The CLI of the last `session.resumed` (its generation, and the instance whose CLI it is): a second
   * resume on it has nothing to do. Generations count from 1 in every process, so the instance tells a
   * restarted service's CLI from the one before it.
   */
  resumedOn?: { cliGeneration: number; instanceId?: string };
  /** issue 28: the trace of the last `session.message_sent` (its turn, or its run's span): what its tool calls and hooks nest under. */
  trace?: RecordedTrace;
}

export type SessionCommand =
  | { type: 'CreateSession'; sessionId: string; config: SessionConfig }
  | { type: 'RecordStart'; sessionId: string; protocolVersion?: number; cliVersion?: string; teamAgents: CustomAgentConfig[] }
  | { type: 'RecordStartFailure'; sessionId: string; error: string; problems?: TeamProblems }
  /** `onCurrentCli`: the live session was created or resumed on the running CLI (a runtime fact, not in the stream). */
  | {
      type: 'SendMessage';
      sessionId: string;
      prompt: string;
      reminders: Array<{ kind: string; text: string; data: Record<string, unknown> }>;
      onCurrentCli: boolean;
      /** issue 28: the span the turn's work nests under (the turn's own, or a run's), chosen before deciding. */
      trace?: RecordedTrace;
    }
  | { type: 'RecordMessageFailure'; sessionId: string; error: string }
  | { type: 'InterruptSession'; sessionId: string; reason: string }
  | {
      type: 'ResumeSession';
      sessionId: string;
      cliGeneration: number;
      /** The instance whose CLI the session is resumed on. */
      instanceId: string;
      protocolVersion?: number;
      cliVersion?: string;
      teamAgents: CustomAgentConfig[];
      createdInCli: boolean;
    }
  | { type: 'RecordResumeFailure'; sessionId: string; error: string; problems?: TeamProblems }
  | { type: 'DestroySession'; sessionId: string; reason?: string; cliError?: string }
  | { type: 'ChangeSubAgents'; sessionId: string; subAgents: string[] }
  | { type: 'RequestAbort'; sessionId: string; onCurrentCli: boolean }
  /**
   * `subagent`: the CLI sub-agent as `subagent_instances` has it now (its status, its agent), absent when
   * the session never launched one by that id.
   */
  | {
      type: 'SteerAgent';
      sessionId: string;
      message: string;
      onCurrentCli: boolean;
      steeredBy: string;
      agentName: string;
      runId?: string;
      subagent?: { subagentId: string; status: string | undefined };
    }
  | { type: 'RecordSteerFailure'; sessionId: string; error: string; subagentId?: string };

const OVER: ReadonlySet<SessionState['status']> = new Set(['destroyed', 'failed']);

function isOver(state: SessionState): boolean {
  return OVER.has(state.status);
}

/** The same refusals as LiveSessionLookup: unknown is a 404, destroyed or failed a 409 naming the status. */
function assertLive(state: SessionState, sessionId: string): void {
  if (state.status === 'absent') throw new SessionNotFoundError(sessionId);
  if (isOver(state)) throw new SessionNotLiveError(sessionId, state.status, state.statusReason);
}

function withStatus(state: SessionState, status: SessionStatus, reason?: string): SessionState {
  return { ...state, status, statusReason: reason };
}

export function evolveSession(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case SessionEvents.created:
      return { status: 'starting', config: event.data.config, teamAgents: [], cliCreated: false };
    case SessionEvents.started:
      return { ...withStatus(state, 'active'), cliCreated: true, teamAgents: event.data.teamAgents ?? state.teamAgents };
    case SessionEvents.startFailed:
      return withStatus(state, 'failed', String(event.data.error ?? ''));
    case SessionEvents.messageSent:
      return { ...withStatus(state, 'running'), ...(event.data.trace ? { trace: event.data.trace } : {}) };
    case SessionEvents.messageFailed:
      return withStatus(state, 'idle', String(event.data.error ?? ''));
    case SessionEvents.interrupted:
      return withStatus(state, 'interrupted', event.data.reason);
    case SessionEvents.resumed:
      return {
        ...withStatus(state, 'idle'),
        cliCreated: true,
        teamAgents: event.data.teamAgents ?? state.teamAgents,
        resumedOn: { cliGeneration: event.data.cliGeneration, instanceId: event.data.instanceId },
      };
    case SessionEvents.resumeFailed:
      return withStatus(state, 'interrupted', String(event.data.error ?? ''));
    case SessionEvents.destroyed:
      return withStatus(state, 'destroyed', String(event.data.reason ?? '') || undefined);
    case SessionEvents.subAgentsChanged:
      return state.config ? { ...state, config: { ...state.config, subAgents: event.data.subAgents } } : state;
    default:
      // The end of the main agent's turn; a sub-agent's idle (protocol 3 tags it with agentId) does not end it,
      // and a session that is starting, interrupted or over stays so.
      if (event.type === CLI_IDLE && !event.data.agentId && (TURN_ENDS_FROM as readonly string[]).includes(state.status)) {
        return withStatus(state, 'idle');
      }
      return state;
  }
}

export function decideSession(command: SessionCommand, state: SessionState): SessionEvent[] {
  const { sessionId } = command;
  switch (command.type) {
    case 'CreateSession':
      if (state.status !== 'absent') throw new SessionStateError(`Session ${sessionId} already exists`, { sessionId });
      return [{ type: SessionEvents.created, data: { sessionId, config: command.config } }];
    case 'RecordStart':
      // Destroyed while the CLI was creating it: the destroy stands.
      assertLive(state, sessionId);
      return [
        {
          type: SessionEvents.started,
          data: { protocolVersion: command.protocolVersion, cliVersion: command.cliVersion, teamAgents: command.teamAgents },
        },
      ];
    case 'RecordStartFailure':
      if (state.status === 'absent' || isOver(state)) return [];
      return [{ type: SessionEvents.startFailed, data: { error: command.error, ...(command.problems ? { problems: command.problems } : {}) } }];
    case 'SendMessage':
      assertLive(state, sessionId);
      if (state.status === 'interrupted' || !command.onCurrentCli) {
        throw new SessionStateError(
          `Session ${sessionId} was interrupted (the Copilot CLI restarted); resume it with POST /api/sessions/${sessionId}/resume`,
        );
      }
      if (state.status === 'starting') throw new SessionStateError(`Session ${sessionId} is still starting`);
      return [
        { type: SessionEvents.messageSent, data: { prompt: command.prompt, ...(command.trace ? { trace: command.trace } : {}) } },
        ...command.reminders.map((r): SessionReminded => ({ type: SessionEvents.reminded, data: { kind: r.kind, text: r.text, ...r.data } })),
      ];
    case 'RecordMessageFailure':
      // Destroyed while the CLI refused the message: nothing left to record on it.
      if (state.status === 'absent' || isOver(state)) return [];
      return [{ type: SessionEvents.messageFailed, data: { error: command.error } }];
    case 'InterruptSession':
      if (state.status === 'absent' || isOver(state) || state.status === 'interrupted') return [];
      return [{ type: SessionEvents.interrupted, data: { reason: command.reason, wasRunning: state.status === 'running' } }];
    case 'ResumeSession':
      assertLive(state, sessionId);
      // Another resume on this CLI got there first.
      if (
        state.status !== 'interrupted' &&
        state.resumedOn?.cliGeneration === command.cliGeneration &&
        state.resumedOn.instanceId === command.instanceId
      ) {
        throw new SessionStateError(`Session ${sessionId} is ${state.status}, not interrupted; there is nothing to resume`);
      }
      return [
        // What CreateSession records once the CLI has the session; the read model's protocol version comes from it.
        ...(command.createdInCli
          ? [
              {
                type: SessionEvents.started,
                data: { protocolVersion: command.protocolVersion, cliVersion: command.cliVersion, teamAgents: command.teamAgents },
              } as SessionStarted,
            ]
          : []),
        {
          type: SessionEvents.resumed,
          data: {
            cliGeneration: command.cliGeneration,
            instanceId: command.instanceId,
            teamAgents: command.teamAgents,
            ...(command.createdInCli ? { createdInCli: true } : {}),
          },
        },
      ];
    case 'RecordResumeFailure':
      if (state.status === 'absent' || isOver(state)) return [];
      return [{ type: SessionEvents.resumeFailed, data: { error: command.error, ...(command.problems ? { problems: command.problems } : {}) } }];
    case 'DestroySession':
      assertLive(state, sessionId);
      return [{ type: SessionEvents.destroyed, data: { reason: command.reason, cliError: command.cliError } }];
    case 'ChangeSubAgents':
      assertLive(state, sessionId);
      return [{ type: SessionEvents.subAgentsChanged, data: { subAgents: command.subAgents } }];
    case 'RequestAbort':
      assertLive(state, sessionId);
      // Only a turn on the running CLI can be stopped; an interrupted session's turn already ended with the CLI.
      if (state.status !== 'running' || !command.onCurrentCli) {
        throw new SessionStateError(
          `Session ${sessionId} is ${state.status === 'running' ? 'interrupted' : state.status}; there is no running turn to stop`,
          {
            sessionId,
            status: state.status,
          },
        );
      }
      return [{ type: SessionEvents.abortRequested, data: {} }];
    case 'SteerAgent':
      return decideSteer(command, state);
    case 'RecordSteerFailure':
      if (state.status === 'absent' || isOver(state)) return [];
      return [
        {
          type: SessionEvents.steerFailed,
          data: {
            error: command.error,
            target: command.subagentId ? 'subagent' : 'main',
            ...(command.subagentId ? { subagentId: command.subagentId } : {}),
          },
        },
      ];
  }
}

/** Only an agent whose turn is running takes a steer: an idle one is sent a message instead, a sub-agent that ended takes none. */
function decideSteer(command: Extract<SessionCommand, { type: 'SteerAgent' }>, state: SessionState): SessionEvent[] {
  const { sessionId, subagent } = command;
  assertLive(state, sessionId);
  if (state.status !== 'running' || !command.onCurrentCli) {
    const status = state.status === 'running' ? 'interrupted' : state.status;
    // A run's session is between turns (starting, or its turn just ended): the run's own state says what comes next.
    const message = command.runId
      ? `Run ${command.runId} is running but its agent's turn is not (its session ${sessionId} is ${status}); steer it while its turn runs`
      : `Session ${sessionId} is ${status}; only an agent whose turn is running can be steered${status === 'idle' || status === 'active' ? ` (send a message instead: POST /api/sessions/${sessionId}/messages)` : ''}`;
    throw new SessionStateError(message, { sessionId, status, ...(command.runId ? { runId: command.runId } : {}) });
  }
  if (subagent) {
    if (subagent.status === undefined) throw new SubagentNotFoundError(sessionId, subagent.subagentId);
    if (subagent.status !== 'running') {
      throw new SessionStateError(
        `Sub-agent ${subagent.subagentId} of session ${sessionId} is ${subagent.status}; only a running sub-agent can be steered`,
        {
          sessionId,
          subagentId: subagent.subagentId,
          status: subagent.status,
        },
      );
    }
  }
  return [
    {
      type: SessionEvents.steered,
      data: {
        message: command.message,
        target: subagent ? 'subagent' : 'main',
        ...(subagent ? { subagentId: subagent.subagentId } : {}),
        agentName: command.agentName,
        steeredBy: command.steeredBy,
        ...(command.runId ? { runId: command.runId } : {}),
      },
    },
  ];
}

export const initialSessionState = (): SessionState => ({ status: 'absent', teamAgents: [], cliCreated: false });

export const sessionDecider: Decider<SessionState, SessionCommand, SessionEvent> = {
  isEvent: isSessionEvent,
  initialState: initialSessionState,
  // Session streams carry other contexts' events too: those leave the session as it is.
  evolve: (state, event) => (isSessionEvent(event) ? evolveSession(state, event) : state),
  decide: decideSession,
};

/**
 * How many CLI records may get between a command's read and its append: CLI events are facts
 * appended without a version, so a command on a busy session reads again and decides again.
 */
export const SESSION_COMMAND_RETRIES = 5;
