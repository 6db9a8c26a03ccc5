import { type DomainEvent, eventGuard, eventReader } from '../event-store';

/**
 * issue 25: the events of a `model_call-<callId>` stream, one stream per model call the CLI handed to
 * Switchboard. A streamed answer is one recorded answer (`model_call.finished`), never an event per
 * chunk; the bodies live here, not on the session's stream, so reading a conversation never reads them.
 */
export const ModelCallEvents = {
  started: 'model_call.started',
  finished: 'model_call.finished',
  failed: 'model_call.failed',
  refused: 'model_call.refused',
  interrupted: 'model_call.interrupted',
} as const;

/** Where a call sits: the session, the CLI sub-agent, the run and its root, the agents from the root down. */
export interface ModelCallLineage {
  /** The CLI session that made it: a Switchboard session, or a run's thread `sub-agent-<runId>`. */
  sessionId: string;
  /** The CLI's `agentId`: the session id for the session's own agent, the task id for a CLI sub-agent. */
  cliAgentId: string;
  /** The CLI's `parentAgentId`: the outer sub-agent's id for a nested one. */
  parentCliAgentId?: string;
  /** One per agent loop, the same across the CLI's retries of one call. */
  agentInvocationId?: string;
  /** The agent's name: the session's or run's agent, or the custom agent the CLI launched. */
  agentName: string;
  /** Set for a call of a CLI sub-agent (`task`): its id, as `subagent_instances` and the child-session maps know it. */
  subagentId?: string;
  runId?: string;
  rootRunId?: string;
  /** The run's `path` (`/<root>/…/<run>/`): a subtree's calls are one range of it. */
  runPath?: string;
  /** Agent names from the top of the team to the caller: lead → researcher → …. */
  lineagePath: string[];
}

/** What the request says of itself, read once off its body. */
export interface ModelRequestSummary {
  model: string;
  /** `openai`, `azure`, `anthropic`, or `capi` when the CLI talks to GitHub's own endpoint. */
  provider: string;
  /** The CLI's classification: `conversation-agent`, `conversation-subagent`, … */
  interactionType?: string;
  /** `user` when a person's message started it, `agent` when the loop went on by itself. */
  initiator?: string;
  method: string;
  /** The path asked for (`/chat/completions`), never the host: the CLI's placeholder or the provider's. */
  path: string;
  requestBytes: number;
  messageCount: number;
  toolCount: number;
  stream: boolean;
  /** The output cap the CLI asked for, and the one sent when a budget narrowed it. */
  maxOutputTokens?: number;
  cappedOutputTokens?: number;
}

export interface ModelCallStartedData extends ModelCallLineage, ModelRequestSummary {
  callId: string;
  /** The CLI's id of this attempt (new per retry). */
  requestId: string;
  /** The request body as sent upstream (`SWITCHBOARD_MODEL_CONTENT=full`), cut at the configured size. */
  request?: string;
  requestTruncated?: boolean;
  /** The instance forwarding it: a call left in flight by a dead instance is recorded interrupted by the one that takes over. */
  instanceId: string;
  /** issue 26: a call of a replay or fork session: answered from the record or sent live, and why. */
  replay?: ModelCallReplay;
}

/** issue 26: where a replay's call got its answer. */
export interface ModelCallReplay {
  /** `record`: the recorded answer of `originalCallId` was played back (nothing reached the model); `live`: sent to the model. */
  source: 'record' | 'live';
  /** The original call matched by agent and position, when there was one. */
  originalCallId?: string;
  /** 1-based position of the call among its agent's calls in its session. */
  position: number;
  /** Set on the first call whose request differs from the original's (or that the original never made). */
  divergence?: ReplayDivergence;
  /** fork: this call is the fork point (message appended, overrides applied from here on). */
  forkPoint?: true;
}

/** The first difference between what an agent asks now and what it asked then, with both versions (cut to 4 KB each). */
export interface ReplayDivergence {
  /** What differs: `system` (prompt), `tools` (tool list), `messages` (a message or tool result), `model`, or `missing` (no such call then). */
  part: 'system' | 'tools' | 'messages' | 'model' | 'missing';
  /** Where in that part: a message index, a tool name. */
  at?: string;
  original?: string;
  now?: string;
}

export interface ModelUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
}

/** Cost in the price table's currency; absent when the model is not in the table (unknown, never 0). */
export interface ModelCost {
  amount: number;
  currency: string;
}

export interface ModelAnswerRecord {
  /** The provider's status. */
  status: number;
  /** Milliseconds from receiving the whole request to the provider's first byte. */
  ttfbMs?: number;
  durationMs: number;
  usage: ModelUsage;
  /** The answer's id (`chatcmpl-…`), which the CLI's own events and spans carry. */
  responseId?: string;
  finishReason?: string;
  cost?: ModelCost;
  answerBytes: number;
  /** How many chunks the answer came in (1 for a JSON answer). */
  chunks: number;
  /** The answer body as the CLI received it (`SWITCHBOARD_MODEL_CONTENT=full`), cut at the configured size. */
  answer?: string;
  answerTruncated?: boolean;
}

export interface ModelCallFinishedData extends ModelAnswerRecord {
  callId: string;
  sessionId: string;
  runId?: string;
}

/** The provider answered with an error status, the transport failed, or the CLI cancelled the call. */
export interface ModelCallFailedData extends Partial<ModelAnswerRecord> {
  callId: string;
  sessionId: string;
  runId?: string;
  durationMs: number;
  outcome: 'failed' | 'cancelled';
  error: string;
}

/** Switchboard did not send the call: a budget over it was spent. One event, with the call's lineage. */
export interface ModelCallRefusedData extends ModelCallLineage, ModelRequestSummary {
  callId: string;
  requestId: string;
  /** The limit reached (`max_tokens`, `max_cost`) and whose budget it was. */
  limit: string;
  used: number;
  max: number;
  budgetRunId?: string;
  budgetSessionId?: string;
  /** The text the CLI's loop ends on, shown in the chat and in `session.error`. */
  message: string;
  instanceId: string;
  /** issue 26: a replay stopped at its first divergence (`limit: 'replay_divergence'`, used and max 0). */
  replay?: ModelCallReplay;
}

/** A call left in flight by a process that died: no answer will come to it. */
export interface ModelCallInterruptedData {
  callId: string;
  sessionId: string;
  runId?: string;
  reason: string;
}

export type ModelCallStarted = DomainEvent<typeof ModelCallEvents.started, ModelCallStartedData>;
export type ModelCallFinished = DomainEvent<typeof ModelCallEvents.finished, ModelCallFinishedData>;
export type ModelCallFailed = DomainEvent<typeof ModelCallEvents.failed, ModelCallFailedData>;
export type ModelCallRefused = DomainEvent<typeof ModelCallEvents.refused, ModelCallRefusedData>;
export type ModelCallInterrupted = DomainEvent<typeof ModelCallEvents.interrupted, ModelCallInterruptedData>;
export type ModelCallEvent = ModelCallStarted | ModelCallFinished | ModelCallFailed | ModelCallRefused | ModelCallInterrupted;

export const isModelCallEvent = eventGuard<ModelCallEvent>(Object.values(ModelCallEvents));
/** A model-call event as another context reads it: by its type, through these payload types. */
export const readModelCallEvent = eventReader<ModelCallEvent>(Object.values(ModelCallEvents));
