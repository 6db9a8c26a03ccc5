import { useMemo, useState } from 'react';
import { ErrorNote } from '../ui/ErrorNote';
import type { ChangesTarget } from './changes-api';
import { mergesOf } from './changes';
import { ChangesView, type StepLinks } from './ChangesView';
import { useWorkspace } from './use-changes';

type RunScope = 'own' | 'subtree' | 'against';

/**
 * A run's Changes (issue 42): its own steps' files, or with its sub-runs merged in, or (a replay or a fork)
 * how its files differ from its original's; its branch's merge into its lead's worktree. Nothing at all when
 * the run has no workspace.
 */
export function RunChanges({
  runId,
  agentOf,
  version,
  live,
  steps,
  originalRunId,
}: {
  runId: string;
  /** A replay's or a fork's original: its files can be compared with this run's. */
  originalRunId?: string;
  /** The agent of a run of the tree, where the page knows it. */
  agentOf: (runId: string) => string | undefined;
  version: number;
  live: boolean;
  steps?: StepLinks;
}) {
  const [picked, setScope] = useState<RunScope>('own');
  const scope = picked === 'against' && !originalRunId ? 'own' : picked;
  const target: ChangesTarget = useMemo(
    () => ({ kind: 'run', id: runId, subtree: scope === 'subtree', ...(scope === 'against' ? { against: originalRunId } : {}) }),
    [runId, scope, originalRunId],
  );
  const { changes, history } = useWorkspace(target, version, live);
  if (changes.error) return <ErrorNote error={changes.error} title="The changes could not be loaded" />;
  if (!changes.data) return null;
  return (
    <ChangesView
      target={target}
      changes={changes.data}
      history={history.data}
      historyError={history.error}
      merges={changes.data.merges}
      runName={agentOf}
      mergesTitle="Its merge into its lead"
      steps={steps}
      scope={
        <div className="segmented" role="group" aria-label="Whose changes">
          <button type="button" aria-pressed={scope === 'own'} onClick={() => setScope('own')}>
            This run
          </button>
          <button type="button" aria-pressed={scope === 'subtree'} onClick={() => setScope('subtree')}>
            With its sub-runs
          </button>
          {originalRunId && (
            <button type="button" aria-pressed={scope === 'against'} onClick={() => setScope('against')}>
              Against the original
            </button>
          )}
        </div>
      }
    />
  );
}

/**
 * A session's Changes: its worktree against its base (what its runs merged in included), the merges of
 * the runs it started (`runs`: those its conversation names) with their conflicts. Nothing at all when the
 * session has no workspace.
 */
export function SessionChanges({
  sessionId,
  runs,
  version,
  live,
}: {
  sessionId: string;
  runs: ReadonlyArray<{ runId: string; agentId?: string }>;
  version: number;
  live: boolean;
}) {
  const target: ChangesTarget = useMemo(() => ({ kind: 'session', id: sessionId }), [sessionId]);
  const { changes, history } = useWorkspace(target, version, live);
  // The session's own stream records each run's merge into it (and its own into its parent): no fetch per run.
  const merges = useMemo(() => mergesOf(changes.data?.merges ?? [], []), [changes.data]);
  const agents = useMemo(() => new Map(runs.filter((r) => r.agentId).map((r) => [r.runId, r.agentId!])), [runs]);
  if (changes.error) return <ErrorNote error={changes.error} title="The changes could not be loaded" />;
  if (!changes.data) return null;
  return (
    <ChangesView
      target={target}
      changes={changes.data}
      history={history.data}
      historyError={history.error}
      merges={merges}
      runName={(runId) => agents.get(runId)}
      mergesTitle="Merges of its runs"
    />
  );
}
