import type { TraceParent } from '../common';
import type { RunState } from './run.decider';
import { PolicyDeniedError } from './run.errors';
import { API_THREAD, type RunStatus } from './run.events';

/**
 * Who sends a delegation command. A tool call comes from a session's thread (its main agent, or a
 * CLI-native sub-agent of it, named by `agentName`); the API acts as an operator and may act on any run.
 */
export type RunCaller =
  /** `traceparent`: the caller's span (issue 28), a root run's parent. */
  | { kind: 'api'; actor?: string; traceparent?: TraceParent }
  /** `toolCallId`: the agent_run call (issue 28: the run's span nests under its execute_tool span). */
  | { kind: 'tool'; sessionId: string; agentName?: string; toolCallId?: string };

/** The API as caller (REST, GraphQL, MCP): it owns the root runs it starts and may stop or resume any run. */
export const API_CALLER: RunCaller = { kind: 'api' };

export function callerThread(caller: RunCaller): string {
  return caller.kind === 'api' ? API_THREAD : caller.sessionId;
}

export function callerActor(caller: RunCaller): string {
  return caller.kind === 'api' ? (caller.actor ?? 'api') : `session:${caller.sessionId}`;
}

/** spec: owner thread check. A tool call may only stop, resume or read the runs its own thread owns. */
export function assertOwner(state: RunState, caller: RunCaller): void {
  if (caller.kind === 'api') return;
  if (state.started.ownerThreadId !== caller.sessionId) {
    throw new PolicyDeniedError(`Run ${state.started.runId} belongs to another thread; a run can only be controlled by the thread that started it`, {
      runId: state.started.runId,
    });
  }
}

/** The JSON every delegation command answers with (spec: `{run_id, agent_id, status, error?, output?}`). */
export interface RunSummary {
  run_id: string;
  agent_id: string;
  status: RunStatus;
  background: boolean;
  output?: string;
  error?: { code: string; message: string };
  /**
   * issue 42: how the run's changes reached its owner's worktree: merged (the files), or conflicts left there
   * with markers for the owner to resolve. Absent when the run has no workspace or is not merged yet.
   */
  workspace?: { merge: 'merged' | 'up-to-date' | 'conflicted' | 'failed'; files: string[]; conflicts: string[]; branch: string; error?: string };
}

export function toSummary(state: RunState): RunSummary {
  const summary: RunSummary = {
    run_id: state.started.runId,
    agent_id: state.started.agentId,
    status: state.status,
    background: state.started.background,
  };
  if (state.output !== null) summary.output = state.output;
  if (state.status === 'failed') summary.error = { code: 'run_failed', message: state.error ?? 'the run failed' };
  if (state.status === 'interrupted') {
    summary.error = {
      code: 'run_interrupted',
      message: `${state.error ?? 'the run was interrupted'}; resume it with agent_run {run_id} or stop it with agent_stop`,
    };
  }
  if (state.status === 'stopped' && state.stoppedBy?.actor === 'budget') {
    const { limit, allowed, used, cascadeFrom, budgetSessionId } = state.stoppedBy;
    const whose = budgetSessionId ? `of session ${budgetSessionId} ` : cascadeFrom ? `of run ${cascadeFrom} ` : '';
    summary.error = { code: 'budget_exceeded', message: `stopped: the budget ${whose}was exceeded (${limit} allowed ${allowed}, used ${used})` };
  } else if (state.status === 'stopped' && state.stoppedBy) {
    summary.error = { code: 'run_stopped', message: `stopped by ${state.stoppedBy.actor}: ${state.stoppedBy.reason}` };
  }
  return summary;
}
