import type { RecordedTrace } from '../common';
import { type DomainEvent, eventGuard, eventReader } from '../event-store';
import type { BudgetBreach, BudgetLimit, RunBudget } from './run-budget';
import type { PermissionPolicy } from '../sessions';
import type { ResolvedRunPolicy } from './run-policy';

/** Event types of a run stream (`run-<run_id>`), plus what the engine writes on its owner's session stream. */
export const RunEvents = {
  started: 'run.started',
  completed: 'run.completed',
  failed: 'run.failed',
  stopped: 'run.stopped',
  interrupted: 'run.interrupted',
  resumed: 'run.resumed',
  /** A limit of the run's budget reached the warning share (80%); its owner is told at its next turn. */
  budgetWarned: 'run.budget_warned',
  /** issue 43: a remote agent's run: the A2A task its service made of this launch's message, and who follows it. */
  remoteTaskLinked: 'run.remote_task_linked',
  /** issue 43: what a remote task's service reported it used (tokens, cost), recorded when the task ended. */
  remoteUsageReported: 'run.remote_usage_reported',
  /** On the owner session's stream: a run it owns ended (or was interrupted); it is also reminded at its next turn. */
  ended: 'run.ended',
  /** On the parent session's stream: what a foreground child is doing. */
  progress: 'run.progress',
  /** On the caller's stream: a delegation the policy refused, with the reason. */
  delegationRefused: 'run.delegation_refused',
} as const;

export type RunStatus = 'running' | 'completed' | 'failed' | 'stopped' | 'interrupted';
export const RUN_STATUSES: readonly RunStatus[] = ['running', 'completed', 'failed', 'stopped', 'interrupted'];
/** Statuses in which a run no longer runs; `interrupted` and `stopped` may be resumed. */
export const ENDED_STATUSES: readonly RunStatus[] = ['completed', 'failed', 'stopped', 'interrupted'];

/** The thread the API acts from: it owns runs started over REST without a parent. */
export const API_THREAD = 'api';

export interface RunStartedData {
  runId: string;
  agentId: string;
  prompt: string;
  background: boolean;
  parentRunId: string | null;
  parentThreadId: string | null;
  ownerThreadId: string;
  rootRunId: string;
  depth: number;
  path: string;
  threadId: string;
  epoch: number;
  policy: ResolvedRunPolicy;
  /** Set when the child's first prompt began with a copy of its caller's conversation (`fork_context`). */
  forkContext?: true;
  /** How many of the caller's messages were copied (the text itself is in the child session's first message). */
  forkedMessages?: number;
  /** The budget over the run's subtree: its own, narrowed by what its ancestors' budgets had left at start. */
  budget?: RunBudget;
  /** issue 26: a run of a replay or fork tree: what it plays back and how. */
  replay?: RunReplay;
  /** issue 28: the agent's name when the run started (spans name agents; `agentId` is its id). Absent on older runs. */
  agentName?: string;
  /** issue 28: the first launch's span (`SpanIds.run(runId, 1)`), its trace and parent. Absent on older runs. */
  trace?: RecordedTrace;
  /** issue 30: the schedule firing that started the run. Absent on runs nobody scheduled. */
  scheduledBy?: RunScheduledBy;
  /** issue 30: a root run's session settings given by its starter (a schedule's model and permission policy). */
  session?: RunSessionSettings;
  /** issue 43: a run an A2A client started: a task of this A2A context. Absent on every other run. */
  a2a?: RunA2aContext;
  /** issue 43: a run of a remote agent: its service is sent the prompt over A2A. Absent on every other run. */
  remote?: RunRemoteAgent;
}

/** issue 43: where a remote agent's run is sent: the agent card's URL, as the agent named it when the run started. */
export interface RunRemoteAgent {
  a2a: string;
}

/** issue 43: what a remote service reported a task used, in its task's metadata (as Switchboard's own A2A tasks do). */
export interface RunRemoteUsageReportedData {
  runId: string;
  epoch: number;
  taskId: string;
  totalTokens?: number;
  cost?: number;
  currency?: string;
}

/** issue 43: the remote task a launch of a remote agent's run follows. */
export interface RunRemoteTaskLinkedData {
  runId: string;
  epoch: number;
  taskId: string;
  contextId: string;
  /** The remote agent's name, as its card says. */
  service: string;
  /** The instance that follows the task (asks for its state): it holds the run as a session's owner holds a local one. */
  instanceId: string;
}

/** issue 43: the A2A context a run is a task of; its first prompt began with the context's earlier messages. */
export interface RunA2aContext {
  contextId: string;
  /** How many of the context's earlier messages (its tasks' prompts and outputs) the first prompt carried. */
  priorMessages: number;
}

/** issue 30: the schedule and firing a run was started by. */
export interface RunScheduledBy {
  scheduleId: string;
  firingId: string;
}

/** issue 30: what a run's CLI session is created with beyond its agent's settings. */
export interface RunSessionSettings {
  model?: string;
  permissionPolicy?: PermissionPolicy;
  /** issue 42: the repository the run's worktree is made from (`POST /api/runs` with `workspace`). */
  workspace?: RunWorkspaceRequest;
}

/** issue 42: `workspace` as a run start asks for it. */
export interface RunWorkspaceRequest {
  repository: string;
  ref?: string;
  merge?: 'auto' | 'manual';
}

/**
 * issue 26: how a run of a replay or fork tree plays its original back. The tree's root carries what
 * was asked (`POST /api/runs/:id/replay|fork`); a child run started inside the tree inherits it, with
 * `of` its own original (the original parent's child of the same agent and ordinal), absent when the
 * original had no such child (then nothing answers it from the record: it goes live).
 */
export interface RunReplay {
  /** The original run this one plays back. */
  of?: string;
  mode: 'replay' | 'fork';
  onDivergence: 'stop' | 'live';
  allowSideEffects: boolean;
  /** fork: the model call the fork goes live from (a call of the original tree), and when it started. */
  fromModelCall?: string;
  fromStartedAt?: string;
  /** fork: appended as a user message at the fork point. */
  message?: string;
  /** fork: per agent name, a prompt or model replacing that agent's from the fork point on. */
  agentOverrides?: Record<string, { prompt?: string; model?: string }>;
  /** Who asked for the replay or fork (`console` / `api`). */
  requestedBy: string;
}

export interface RunCompletedData {
  runId: string;
  epoch: number;
  output: string;
}

export interface RunFailedData {
  runId: string;
  epoch: number;
  error: string;
}

export interface StoppedBy {
  /** Who asked: `api`, `session:<id>` (a tool call), or `switchboard` (timeout). */
  actor: string;
  /** The run whose stop cascaded to this one, when it is not this run. */
  cascadeFrom?: string;
  reason: string;
  /** actor `budget`: the limit that was passed, what it allowed and what the subtree had used when it was stopped. */
  limit?: BudgetLimit;
  allowed?: number;
  used?: number;
  /** actor `budget`, when the budget passed was a session's (over every run it started). */
  budgetSessionId?: string;
  /** actor `budget`, when a model call was refused before it was sent: the refusal its agent's turn ended on. */
  message?: string;
}

export interface RunStoppedData {
  runId: string;
  epoch: number;
  stoppedBy: StoppedBy;
  /** The graceful abort did not end the turn within the grace period; the CLI session was destroyed. */
  forced: boolean;
}

export interface RunInterruptedData {
  runId: string;
  epoch: number;
  reason: string;
}

export interface RunResumedData {
  runId: string;
  epoch: number;
  prompt: string;
  resumedBy: string;
  /** issue 28: this launch's span (`SpanIds.run(runId, epoch)`), in the first launch's trace. Absent on older runs. */
  trace?: RecordedTrace;
}

export interface RunBudgetWarnedData extends BudgetBreach {
  runId: string;
}

export interface RunEndedData {
  runId: string;
  agentId: string;
  status: RunStatus;
  output?: string;
  error?: string;
}

/** The events of a run stream (`run-<run_id>`), as its decider emits and folds them. */
export type RunEvent =
  | DomainEvent<typeof RunEvents.started, RunStartedData>
  | DomainEvent<typeof RunEvents.completed, RunCompletedData>
  | DomainEvent<typeof RunEvents.failed, RunFailedData>
  | DomainEvent<typeof RunEvents.stopped, RunStoppedData>
  | DomainEvent<typeof RunEvents.interrupted, RunInterruptedData>
  | DomainEvent<typeof RunEvents.resumed, RunResumedData>
  | DomainEvent<typeof RunEvents.budgetWarned, RunBudgetWarnedData>
  | DomainEvent<typeof RunEvents.remoteTaskLinked, RunRemoteTaskLinkedData>
  | DomainEvent<typeof RunEvents.remoteUsageReported, RunRemoteUsageReportedData>;

export const RUN_STREAM_EVENT_TYPES: readonly RunEvent['type'][] = [
  RunEvents.started,
  RunEvents.completed,
  RunEvents.failed,
  RunEvents.stopped,
  RunEvents.interrupted,
  RunEvents.resumed,
  RunEvents.budgetWarned,
  RunEvents.remoteTaskLinked,
  RunEvents.remoteUsageReported,
];
export const isRunEvent = eventGuard<RunEvent>(RUN_STREAM_EVENT_TYPES);
/** A run-stream event as another context reads it: by its type, through these payload types. */
export const readRunEvent = eventReader<RunEvent>(RUN_STREAM_EVENT_TYPES);

/**
 * What a foreground child is doing: it started (its id, before its first step: the caller's run card
 * links to it at once; `toolCallId` names the agent_run call), a tool it started, or the start of a message.
 */
export type RunProgress = { kind: 'started'; toolCallId?: string } | { kind: 'tool'; toolName: unknown } | { kind: 'message'; text: string };

/** `run.progress`, on the child's parent session's stream. */
export type RunProgressData = { runId: string; agentId: string; subAgentId?: string } & RunProgress;

/** A delegation the run policy refused, on the caller's session stream. */
export interface DelegationRefusedData {
  agentId: string;
  callerAgentId: string | null;
  parentRunId: string | null;
  depth: number;
  reason: string;
}

/** `run.ended` on an owner session's stream. */
export type RunEndedEvent = DomainEvent<typeof RunEvents.ended, RunEndedData>;

/** What the delegation context appends to session streams (at version `any`): facts the session's decider never folds. */
export type RunOnSessionEvent =
  RunEndedEvent | DomainEvent<typeof RunEvents.progress, RunProgressData> | DomainEvent<typeof RunEvents.delegationRefused, DelegationRefusedData>;
