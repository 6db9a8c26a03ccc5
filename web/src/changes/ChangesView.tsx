import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ErrorNote } from '../ui/ErrorNote';
import { Icon } from '../ui/icons';
import type { ChangesTarget, WorkspaceChanges, WorkspaceHistory, WorkspaceMerge } from './changes-api';
import {
  checkpointRows,
  conflictedPaths,
  conflictsOf,
  diffFiles,
  filesSummary,
  lineCounts,
  mergeWords,
  OUTCOME_WORDS,
  shortCommit,
  STATUS_WORDS,
} from './changes';
import { DiffView } from './DiffView';
import { LineAttribution } from './LineAttribution';
import { useDiff } from './use-changes';

/** Where a workspace's session is read: a run's thread on its run page, a chat on its own. */
export function sessionPath(sessionId: string): string {
  const run = /^sub-agent-(.+)$/.exec(sessionId);
  return run ? `/runs/${run[1]}` : `/sessions/${sessionId}`;
}

/** How the checkpoints reach their step: the page's timeline, when it has the tool call. */
export interface StepLinks {
  has: (toolCallId: string) => boolean;
  show: (toolCallId: string) => void;
}

const OUTCOME_TONE: Record<WorkspaceMerge['outcome'], string> = { merged: 'live', 'up-to-date': 'over', conflicted: 'attention', failed: 'attention' };

/**
 * A worktree's changes: the files (status, +added −deleted, binary), the conflicts flagged first, the
 * merges, a diff of the picked file or every file, and the checkpoints, each linked to its tool call
 * where the page can show it.
 */
export function ChangesView({
  target,
  changes,
  history,
  historyError,
  merges,
  runName,
  scope,
  mergesTitle,
  steps,
}: {
  target: ChangesTarget;
  changes: WorkspaceChanges;
  history: WorkspaceHistory | null | undefined;
  historyError?: Parameters<typeof ErrorNote>[0]['error'];
  merges: readonly WorkspaceMerge[];
  /** The agent of a run, by run id, where the page knows it. */
  runName: (runId: string) => string | undefined;
  /** The run page's own / with sub-runs toggle. */
  scope?: ReactNode;
  mergesTitle: string;
  steps?: StepLinks;
}) {
  const [picked, setPicked] = useState<string | undefined>();
  const file = picked && changes.files.some((f) => f.path === picked) ? picked : undefined;
  const diff = useDiff(target, changes, file);
  // A line's attribution, one file at a time: a file still there (a deleted one has no lines) and not binary.
  const [attributing, setAttributing] = useState<string | undefined>();
  const pickedFile = changes.files.find((f) => f.path === file);
  const attributable = file !== undefined && pickedFile !== undefined && pickedFile.status !== 'deleted' && !pickedFile.binary;
  // A run's own files are a part of its worktree: its diff of every file keeps those.
  const only = useMemo(() => (changes.scope === 'own' ? new Set(changes.files.map((f) => f.path)) : undefined), [changes]);
  const files = useMemo(() => diffFiles(diff.data ?? '', only), [diff.data, only]);
  const binary = useMemo(() => new Set(changes.files.filter((f) => f.binary).map((f) => f.path)), [changes]);
  const conflicts = conflictsOf(merges);
  const conflicted = conflictedPaths(merges);
  const checkpoints = checkpointRows(history?.checkpoints ?? []);
  const runLabel = (runId: string | undefined, sessionId: string) => {
    const id = runId ?? /^sub-agent-(.+)$/.exec(sessionId)?.[1];
    return id ? (runName(id) ?? `run ${id.slice(0, 8)}`) : sessionId;
  };

  return (
    <section className="changes" aria-labelledby="changes-title" data-testid="changes">
      <div className="history-head">
        <h2 id="changes-title">Changes</h2>
        {scope}
      </div>
      <p className="muted small changes-where">
        Branch <code>{changes.branch}</code> from <code>{shortCommit(changes.baseCommit)}</code> in <code>{changes.repository}</code>
        {changes.scope === 'own'
          ? ': the files this run’s own steps changed.'
          : changes.scope === 'against' && changes.againstRunId
            ? ': its files against those of '
            : ': its worktree against its base, merged runs included.'}
        {changes.scope === 'against' && changes.againstRunId && (
          <>
            <Link to={`/runs/${changes.againstRunId}`}>the original run</Link> (both as they are now).
          </>
        )}
      </p>

      {conflicts.map((c) => (
        <div className="changes-conflict" role="status" key={c.sessionId} data-testid="changes-conflict">
          <Icon name="warning" />{' '}
          <span>
            <strong>Conflict:</strong> merging{' '}
            {c.runId ? <Link to={`/runs/${c.runId}`}>{runLabel(c.runId, c.sessionId)}</Link> : runLabel(c.runId, c.sessionId)} left conflict markers in{' '}
            {c.paths.map((p, i) => (
              <span key={p}>
                {i > 0 && ', '}
                <code>{p}</code>
              </span>
            ))}
            . The lead’s worktree keeps them for it to resolve.
          </span>
        </div>
      ))}

      <div className="changes-layout">
        <div className="changes-files">
          <p className="small changes-count">{changes.files.length === 0 ? 'No file changed yet.' : filesSummary(changes.files)}</p>
          {changes.files.length > 0 && (
            <ul aria-label="Changed files">
              <li>
                <button type="button" className="changes-file" aria-pressed={file === undefined} onClick={() => setPicked(undefined)}>
                  Every file
                </button>
              </li>
              {changes.files.map((f) => {
                const counts = lineCounts(f);
                return (
                  <li key={f.path}>
                    <button
                      type="button"
                      className="changes-file"
                      aria-pressed={file === f.path}
                      onClick={() => setPicked(f.path)}
                      data-testid="changes-file"
                      title={f.previousPath ? `${f.previousPath} \u2192 ${f.path}` : f.path}
                    >
                      <span className={`file-status file-${f.status}`}>{STATUS_WORDS[f.status] ?? f.status}</span>
                      <span className="changes-path">{f.path}</span>
                      {conflicted.has(f.path) && <span className="badge status-attention">conflict</span>}
                      {counts === 'binary' ? (
                        <span className="badge">binary</span>
                      ) : (
                        <span className="changes-lines">
                          <span className="lines-added">{counts.additions}</span> <span className="lines-deleted">{counts.deletions}</span>
                        </span>
                      )}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        <div className="changes-diff" aria-label={file ? `Diff of ${file}` : 'Diff of every file'} role="region">
          <ErrorNote error={diff.error} title="The diff could not be loaded" />
          {diff.data === undefined && !diff.error && <p className="muted small">Loading the diff…</p>}
          {diff.data !== undefined && files.length === 0 && <p className="muted small">Nothing to show: no line differs from the base.</p>}
          {files.length > 0 && <DiffView files={files} binary={binary} />}
          {attributable && (
            <p>
              <button type="button" aria-expanded={attributing === file} onClick={() => setAttributing(attributing === file ? undefined : file)}>
                {attributing === file ? 'Hide who wrote each line' : 'Who wrote each line'}
              </button>
            </p>
          )}
          {attributable && attributing === file && <LineAttribution target={target} file={file} steps={steps} />}
        </div>
      </div>

      <h3>{mergesTitle}</h3>
      {merges.length === 0 ? (
        <p className="muted small">No merge yet.</p>
      ) : (
        <ul className="changes-merges">
          {merges.map((m) => (
            <li key={`${m.sessionId}>${m.intoSessionId}`} data-testid="changes-merge" data-outcome={m.outcome}>
              <span className={`badge status-${OUTCOME_TONE[m.outcome]}`}>{OUTCOME_WORDS[m.outcome]}</span>{' '}
              {m.runId ? <Link to={`/runs/${m.runId}`}>{runLabel(m.runId, m.sessionId)}</Link> : runLabel(m.runId, m.sessionId)} into{' '}
              <Link to={sessionPath(m.intoSessionId)}>{m.intoSessionId === changes.sessionId ? 'this worktree' : 'its lead’s worktree'}</Link>:{' '}
              {mergeWords(m)}
              {m.commit && (
                <>
                  {' '}
                  (<code>{shortCommit(m.commit)}</code>)
                </>
              )}
            </li>
          ))}
        </ul>
      )}

      <h3>Checkpoints</h3>
      <ErrorNote error={historyError} title="The checkpoints could not be loaded" />
      {checkpoints.length === 0 ? (
        <p className="muted small">No checkpoint yet: a step that changes files makes one.</p>
      ) : (
        <ol className="changes-checkpoints">
          {checkpoints.map((c) => (
            <li key={c.key} data-testid="changes-checkpoint">
              <code title={c.commit}>{c.short}</code> {c.toolName ? <code>{c.toolName}</code> : null} {c.cause}: {c.files} ({c.paths.join(', ')})
              {c.toolCallId && (
                <span className="muted small">
                  {' '}
                  · tool call <code>{c.toolCallId}</code>{' '}
                  {steps?.has(c.toolCallId) ? (
                    <button type="button" className="link-button small" onClick={() => steps.show(c.toolCallId!)}>
                      Show in the timeline
                    </button>
                  ) : steps ? (
                    '(not in the timeline)'
                  ) : null}
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
