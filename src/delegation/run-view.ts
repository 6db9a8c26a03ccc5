import type { ModelPriceTable } from '../config';
import type { ModelCallSpendView } from '../model-calls';
import type { Actor } from '../common';
import type { PauseView } from '../pauses';
import type { RunRow } from '../run-lineage';
import { type BudgetUse, type BudgetView, budgetView, type RunBudget } from './run-budget';

/**
 * What some runs' model calls cost (the ledger's spend as the run views show it): `cost` in
 * `currency`, null when unknown (no price table, or none of the calls' models has a price; never 0 for
 * unknown); `unpriced_calls` were left out of it.
 */
export interface RunCost {
  cost: number | null;
  currency: string | null;
  model_calls: number;
  unpriced_calls: number;
}

export function runCostOf(spend: ModelCallSpendView, prices: ModelPriceTable | undefined): RunCost {
  return {
    cost: prices === undefined ? null : spend.cost,
    currency: prices?.currency ?? null,
    model_calls: spend.calls,
    unpriced_calls: spend.unpricedCalls,
  };
}

export interface RunUsage extends Partial<RunCost> {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  tool_calls: number;
  duration_ms: number;
}

/** A run as the API shows it (snake_case like the tool results). */
export interface RunView {
  run_id: string;
  agent_id: string;
  prompt: string;
  status: string;
  background: boolean;
  parent_run_id: string | null;
  parent_thread_id: string | null;
  owner_thread_id: string;
  root_run_id: string;
  depth: number;
  thread_id: string;
  epoch: number;
  policy: unknown;
  output: string | null;
  error: string | null;
  stopped_by: unknown;
  usage: RunUsage;
  /** The budget over the run's subtree: limits, use and what is left (use only where it was read: a single run). */
  budget: BudgetView | null;
  started_at: string;
  ended_at: string | null;
  /** issue 26: the run this one replays or forks (its original in the replay tree). */
  replay_of: string | null;
  /** issue 26: a fork's root: the original run and the model call it went live from. */
  forked_from: { run_id: string; model_call_id: string } | null;
  /** issue 26: a run of a replay or fork tree (details and the divergence on a single run's view). */
  replay: RunReplayView | null;
  /** issue 26: the pause over the run (its own or an ancestor's, or its tree's session's); a running run under one says `status: paused`. */
  pause: RunPauseView | null;
  /** issue 30: the schedule firing that started the run, null for runs nobody scheduled. */
  scheduled_by: { schedule_id: string; firing_id: string } | null;
  /** issue 39: who started the run (run.started's actor); null for runs started before it was recorded. */
  started_by: Actor | null;
  /** issue 43: the A2A context of a run an A2A client started (the run is a task of it); null for every other run. */
  a2a_context_id: string | null;
  /** issue 43: a remote agent's run: its card, and once sent, the remote task it follows on that service. */
  remote: RunRemoteView | null;
}

/** issue 43: where a remote agent's run runs. */
export interface RunRemoteView {
  /** The agent card's URL. */
  a2a: string;
  /** The remote agent's name, as its card says; null until the message was sent. */
  service: string | null;
  task_id: string | null;
  context_id: string | null;
  /** What the service reported the task used, when its task's metadata says (Switchboard's own A2A tasks do); null otherwise. */
  usage: { total_tokens: number | null; cost: number | null; currency: string | null } | null;
}

export function remoteView(json: string | null): RunRemoteView | null {
  if (!json) return null;
  const remote = JSON.parse(json) as {
    a2a: string;
    service?: string;
    taskId?: string;
    contextId?: string;
    usage?: { totalTokens?: number; cost?: number; currency?: string };
  };
  const usage = remote.usage && {
    total_tokens: remote.usage.totalTokens ?? null,
    cost: remote.usage.cost ?? null,
    currency: remote.usage.currency ?? null,
  };
  return { a2a: remote.a2a, service: remote.service ?? null, task_id: remote.taskId ?? null, context_id: remote.contextId ?? null, usage: usage ?? null };
}

/** issue 26: how a run of a replay tree plays its original back. */
export interface RunReplayView {
  mode: string;
  on_divergence?: 'stop' | 'live';
  allow_side_effects?: boolean;
  message?: string;
  agent_overrides?: Record<string, { prompt?: string; model?: string }>;
  requested_by?: string;
  /** The replay tree's first model call whose request differed from the original's, with both versions; null: none (yet). */
  divergence?: unknown;
}

export interface RunPauseView {
  since: string;
  by: string;
  /** issue 27: who paused it. */
  actor: Actor;
  /** What was paused: `run` (this run or an ancestor: `run_id`) or `session` (the session that started the tree: `session_id`). */
  target: string;
  run_id: string | null;
  session_id: string | null;
  reason: string | null;
  /** Steps waiting under that pause now (model calls, tool calls, permissions, hooks, user input). */
  held: number;
}

export function toRunPauseView(pause: PauseView): RunPauseView {
  return {
    since: pause.since,
    by: pause.by,
    actor: pause.actor,
    target: pause.target,
    run_id: pause.runId ?? null,
    session_id: pause.sessionId ?? null,
    reason: pause.reason ?? null,
    held: pause.held,
  };
}

export function toRunView(row: RunRow, now = Date.now(), budgetUse?: BudgetUse, pause?: PauseView): RunView {
  return {
    run_id: row.runId,
    agent_id: row.agentId,
    prompt: row.prompt,
    status: pause && row.status === 'running' ? 'paused' : row.status,
    background: row.background,
    parent_run_id: row.parentRunId,
    parent_thread_id: row.parentThreadId,
    owner_thread_id: row.ownerThreadId,
    root_run_id: row.rootRunId,
    depth: row.depth,
    thread_id: row.threadId,
    epoch: row.epoch,
    policy: JSON.parse(row.policy),
    output: row.output,
    error: row.error,
    stopped_by: row.stoppedBy ? JSON.parse(row.stoppedBy) : null,
    usage: usageView(row, now),
    budget: row.budget ? budgetView(JSON.parse(row.budget) as RunBudget, budgetUse) : null,
    started_at: row.startedAt,
    ended_at: row.endedAt,
    replay_of: row.replayOf,
    forked_from: row.forkedFromCall && row.replayOf ? { run_id: row.replayOf, model_call_id: row.forkedFromCall } : null,
    replay: row.replayMode ? { mode: row.replayMode } : null,
    pause: pause ? toRunPauseView(pause) : null,
    scheduled_by: scheduledByView(row.scheduledBy),
    started_by: row.startedBy ? (JSON.parse(row.startedBy) as Actor) : null,
    a2a_context_id: row.a2aContextId,
    remote: remoteView(row.remote),
  };
}

function scheduledByView(json: string | null): RunView['scheduled_by'] {
  if (!json) return null;
  const { scheduleId, firingId } = JSON.parse(json) as { scheduleId: string; firingId: string };
  return { schedule_id: scheduleId, firing_id: firingId };
}

/** A running launch counts its time so far. */
function usageView(row: RunRow, now = Date.now()): RunUsage {
  const running = row.status === 'running' ? Math.max(0, now - Date.parse(row.launchedAt)) : 0;
  return {
    input_tokens: row.inputTokens,
    output_tokens: row.outputTokens,
    total_tokens: row.inputTokens + row.outputTokens,
    tool_calls: row.toolCalls,
    duration_ms: row.durationMs + running,
  };
}

export function addUsage(a: RunUsage, b: RunUsage): RunUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
    tool_calls: a.tool_calls + b.tool_calls,
    duration_ms: a.duration_ms + b.duration_ms,
  };
}
