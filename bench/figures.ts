import type { RunStartedData } from '../src/delegation/run.events';

/** Nearest-rank percentile `p` (0–100) of unsorted samples. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A run's `run.started` under `parent` (a root run when undefined), as the delegation engine records it. */
export function runStartedData(
  runId: string,
  parent: RunStartedData | undefined,
  agentId: string,
  { prompt, policy }: { prompt: string; policy: RunStartedData['policy'] },
): RunStartedData {
  return {
    runId,
    agentId,
    prompt,
    background: parent !== undefined,
    parentRunId: parent?.runId ?? null,
    parentThreadId: parent?.threadId ?? null,
    ownerThreadId: parent?.threadId ?? 'api',
    rootRunId: parent?.rootRunId ?? runId,
    depth: parent ? parent.depth + 1 : 0,
    path: `${parent?.path ?? '/'}${runId}/`,
    threadId: `sub-agent-${runId}`,
    epoch: 1,
    policy,
  };
}
