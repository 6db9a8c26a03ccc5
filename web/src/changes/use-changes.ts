import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useCoalesced, usePolling } from '../api/hooks';
import { type ChangesTarget, loadChanges, loadCheckpoints, loadDiff, type WorkspaceChanges } from './changes-api';

/** Every query of one worktree starts with this key: a refresh asks them all again. */
function workspaceKey(target: ChangesTarget): readonly unknown[] {
  return ['workspace', target.kind, target.id];
}

/**
 * A worktree changes by itself (a checkpoint is committed just after its tool call's event, a merge before
 * the run's end): its queries are asked again a second after the page's events move (`version`), and every
 * 5 s while the session or run is live.
 */
function useWorkspaceRefresh(version: number, live: boolean) {
  const client = useQueryClient();
  // Every worktree query the page shows: a session's page also lists the merges of its runs.
  const refresh = useCallback(() => void client.invalidateQueries({ queryKey: ['workspace'] }), [client]);
  const soon = useCoalesced(refresh, 1000);
  useEffect(() => {
    if (version > 0) soon();
  }, [version, soon]);
  usePolling(() => {
    if (live) refresh();
  }, 5000);
}

/** The files, merges and checkpoints of a worktree; `changes.data` null: it has none (the 404). */
export function useWorkspace(target: ChangesTarget, version: number, live: boolean) {
  useWorkspaceRefresh(version, live);
  const subtree = target.kind === 'run' && target.subtree;
  const changes = useQuery({
    queryKey: [...workspaceKey(target), 'changes', subtree],
    queryFn: () => loadChanges(target),
  });
  const history = useQuery({
    queryKey: [...workspaceKey(target), 'checkpoints'],
    queryFn: () => loadCheckpoints(target),
    enabled: changes.data != null,
  });
  return { changes, history };
}

/** What the diff depends on: a file list that moved asks the diff again. */
function fingerprint(changes: WorkspaceChanges): string {
  return changes.files.map((f) => `${f.path}:${f.status}:${f.additions}:${f.deletions}`).join('|') + `#${changes.merges.length}`;
}

/** The unified diff of one file, or of every file (`file` undefined), once the changes are known. */
export function useDiff(target: ChangesTarget, changes: WorkspaceChanges | null | undefined, file: string | undefined) {
  return useQuery({
    queryKey: [...workspaceKey(target), 'diff', file ?? '*', changes ? fingerprint(changes) : ''],
    queryFn: () => loadDiff(target, file),
    enabled: changes != null,
    // The diff shown stays until the next one came: no flicker while a changed worktree is read again.
    placeholderData: keepPreviousData,
  });
}
