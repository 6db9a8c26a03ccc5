import { textOf } from '../common';
import { fieldsOf, type StoredEvent } from '../event-store';
import {
  type CliAssistantMessagePayload,
  CliRecords,
  type CliSessionErrorPayload,
  type RecordedCliEventData,
  type SessionInterrupted,
  type SessionMessageFailed,
  SessionEvents,
} from '../sessions';

/**
 * When the main agent's turn on a run's session ends, and how, as a pure fold over the session's
 * recorded events (RunExecutor feeds it from the stream). Its last assistant message is the output;
 * `session.idle` after the prompt's own `user.message` ends the turn. Only events after our
 * `session.message_sent` count, so an idle left over from creating, resuming or aborting cannot end it.
 */
export type TurnOutcome = { kind: 'completed'; output: string } | { kind: 'failed'; error: string } | { kind: 'interrupted'; reason: string };

export interface TurnState {
  /** Our prompt was taken (`session.message_sent`): what came before belongs to an earlier turn. */
  promptSent: boolean;
  /**
   * The prompt's own `user.message` arrived. The CLI works a session's messages in order, so the idle
   * of any earlier turn (one just aborted by a stop, say) comes before it; only an idle after it is ours.
   */
  started: boolean;
  /** The main agent's last non-blank assistant message so far. */
  output: string;
  /** Set once; later events change nothing. */
  outcome?: TurnOutcome;
}

/** What the fold reads of a recorded event. */
export type RecordedEvent = Pick<StoredEvent, 'type' | 'data'>;

export function initialTurnState(): TurnState {
  return { promptSent: false, started: false, output: '' };
}

export function evolveTurn(state: TurnState, event: RecordedEvent): TurnState {
  if (state.outcome) return state;
  if (event.type === SessionEvents.messageSent) return { ...state, promptSent: true };
  if (!state.promptSent) return state;
  const own = isOwn(event);
  switch (event.type) {
    case CliRecords.userMessage:
      return own ? { ...state, started: true } : state;
    case CliRecords.assistantMessage: {
      const content = fieldsOf<CliAssistantMessagePayload>(cliEventData(event).payload).content;
      return own && typeof content === 'string' && content.trim() ? { ...state, output: content } : state;
    }
    case CliRecords.sessionIdle:
      return own && state.started ? ended(state, { kind: 'completed', output: state.output }) : state;
    case CliRecords.sessionError:
      return own
        ? ended(state, {
            kind: 'failed',
            error: textOf(fieldsOf<CliSessionErrorPayload>(cliEventData(event).payload).message, 'the Copilot CLI reported a session error'),
          })
        : state;
    case SessionEvents.messageFailed:
      return ended(state, {
        kind: 'failed',
        error: textOf(fieldsOf<SessionMessageFailed['data']>(event.data).error, 'the Copilot CLI did not take the prompt'),
      });
    case SessionEvents.interrupted:
      return ended(state, { kind: 'interrupted', reason: textOf(fieldsOf<SessionInterrupted['data']>(event.data).reason, 'the session was interrupted') });
    case SessionEvents.destroyed:
      return ended(state, { kind: 'failed', error: "the run's session was destroyed" });
    default:
      return state;
  }
}

export function turnOutcome(state: TurnState): TurnOutcome | undefined {
  return state.outcome;
}

/**
 * Whatever turn is current has ended: the main agent's `session.idle` or `abort`, or the session
 * interrupted. What a stop waits for after `session.abort`; unlike the fold it needs no prompt of ours.
 */
export function endsCurrentTurn(event: RecordedEvent): boolean {
  return (isOwn(event) && (event.type === CliRecords.sessionIdle || event.type === CliRecords.abort)) || event.type === SessionEvents.interrupted;
}

/** Events a foreground run forwards to its parent as progress (once its prompt was taken). */
export function isProgress(event: RecordedEvent): boolean {
  return event.type === CliRecords.assistantMessage || event.type === CliRecords.toolExecutionStart;
}

function ended(state: TurnState, outcome: TurnOutcome): TurnState {
  return { ...state, outcome };
}

/** Recorded CLI events of the session's main agent (not of a CLI-native sub-agent, which carry agentId). */
function isOwn(event: RecordedEvent): boolean {
  return !cliEventData(event).agentId;
}

/** A recorded `cli.<type>` event's data as SessionLifecycle writes it, read without trusting its shape. */
export function cliEventData(event: RecordedEvent): RecordedCliEventData {
  const { agentId, payload } = event.data;
  return {
    agentId: typeof agentId === 'string' && agentId !== '' ? agentId : undefined,
    payload: typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? (payload as Record<string, unknown>) : {},
  };
}
