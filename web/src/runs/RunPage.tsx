import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, request } from '../api/client';
import { useLoad, usePolling } from '../api/hooks';
import { linkHandler } from '../app/router';
import { approvalHref, usePendingApprovals, WaitingApprovals } from '../approvals/WaitingApprovals';
import { ErrorNote } from '../ui/ErrorNote';
import { useRowWindow } from '../ui/row-window';
import { ResumeRunMutation, RunHeaderQuery, StopRunMutation } from './operations';
import { runActionsFor, runStatusTone } from './run-list';
import {
  budgetLines,
  describeStop,
  durationMs,
  formatDuration,
  type RunNode,
  runningDescendants,
  type RunStreamEvent,
  type StopReason,
  treeRows,
} from './run-tree';
import { HISTORY_CAP, useNow, useRunEvents } from './use-run-events';
import { axisOf, barOf, ticksOf } from './waterfall';

/** How often a running budgeted run's use is asked again. */
const BUDGET_POLL_MS = 2000;

/** Events the history renders at first and adds per "Show earlier": the DOM stays small however long the run. */
const HISTORY_WINDOW = 100;

export function RunPage({ runId }: { runId: string }) {
  const header = useLoad(() => request(RunHeaderQuery, { id: runId }), runId);
  const live = useRunEvents(runId);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<string | undefined>();
  const [confirmStop, setConfirmStop] = useState<number | undefined>();
  const [acting, setActing] = useState<'stop' | 'resume' | undefined>();
  const [actionError, setActionError] = useState<ApiError | undefined>();
  const [done, setDone] = useState<string | undefined>();

  const { store, version } = live;
  const rows = useMemo(() => treeRows(store, runId, collapsed), [store, runId, collapsed, version]); // eslint-disable-line react-hooks/exhaustive-deps -- the store is mutated in place; version says when
  const anyRunning = rows.some((r) => r.run.status === 'running');
  const now = useNow(anyRunning);
  const axis = useMemo(
    () =>
      axisOf(
        rows.map((r) => r.run),
        now,
      ),
    [rows, now],
  );
  const ticks = useMemo(() => ticksOf(axis), [axis]);
  // Only the rows in view are rendered: an event or a clock tick lays out a few dozen rows, not the whole tree.
  const treeScroll = useRef<HTMLDivElement>(null);
  const shown = useRowWindow(treeScroll, TREE_ROW_HEIGHT, rows.length);

  const loaded = header.data?.run;
  // A budget's use is the service's own count (its guard's sums): asked again while the run works,
  // and once more when its status changes (the final count of a run that just ended).
  const liveStatus = store.runs.get(runId)?.status;
  usePolling(() => {
    if (loaded?.budget && (liveStatus ?? loaded.status) === 'running') header.reload();
  }, BUDGET_POLL_MS);
  const reloadHeader = header.reload;
  useEffect(() => {
    if (liveStatus) reloadHeader();
  }, [liveStatus, reloadHeader]);
  // Requests of this tree that wait for a person: flagged on their run's row, listed above the tree.
  const treeRoot = loaded ? (loaded.rootRunId ?? loaded.runId) : undefined;
  const waiting = usePendingApprovals(useMemo(() => (treeRoot ? { rootRunId: treeRoot } : undefined), [treeRoot]));
  const waitingByRun = useMemo(() => new Map(waiting.filter((a) => a.runId).map((a) => [a.runId!, a.id])), [waiting]);
  const inThisTree = waiting.filter((a) => a.runId && store.runs.has(a.runId));
  const root = store.runs.get(runId);
  const status = root?.status ?? loaded?.status;
  const selectedRun = selected ? store.runs.get(selected) : undefined;

  const toggle = (id: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const act = async (action: 'stop' | 'resume') => {
    setConfirmStop(undefined);
    setActing(action);
    setActionError(undefined);
    setDone(undefined);
    try {
      if (action === 'stop') {
        const { agentStop } = await request(StopRunMutation, { runId, reason: 'stopped from the console' });
        setDone(`Stopped ${agentStop.stoppedRuns.length} run${agentStop.stoppedRuns.length === 1 ? '' : 's'}.`);
      } else {
        const { resumeRun } = await request(ResumeRunMutation, { runId });
        setDone(`Resumed: it is ${resumeRun.status} (launch ${resumeRun.epoch}).`);
      }
    } catch (error) {
      setActionError(error instanceof ApiError ? error : new ApiError(String(error), 'error', 0));
    } finally {
      setActing(undefined);
      header.reload();
    }
  };

  if (header.data && !loaded) {
    return (
      <section className="page" aria-labelledby="run-title">
        <h1 id="run-title">Run not found</h1>
        <p>
          No run has the id <code>{runId}</code>.{' '}
          <a href="/runs" onClick={linkHandler('/runs')}>
            Back to the runs
          </a>
          .
        </p>
      </section>
    );
  }

  // Once the run's events are folded they are the truth (the loaded header may predate a stop or resume).
  const output = root ? root.output : (loaded?.output ?? undefined);
  const error = root ? root.error : (loaded?.error ?? undefined);
  const stoppedBy = root ? root.stoppedBy : ((loaded?.stoppedBy as StopReason | null | undefined) ?? undefined);
  const policy = loaded?.policy as { timeoutMs?: number; maxDepth?: number; maxConcurrentChildren?: number } | undefined;
  const budget = loaded?.budget && budgetLines(loaded.budget.limits, loaded.budget.used);

  return (
    <section className="page run-page" aria-labelledby="run-title">
      <p className="breadcrumb">
        <a href="/runs" onClick={linkHandler('/runs')}>
          Runs
        </a>
        {loaded?.parentRunId && (
          <>
            {' / '}
            <a href={`/runs/${loaded.parentRunId}`} onClick={linkHandler(`/runs/${loaded.parentRunId}`)}>
              parent run
            </a>
          </>
        )}
      </p>
      <div className="page-head">
        <div>
          <h1 id="run-title">
            Run <span className="mono run-title-id">{runId}</span>
          </h1>
          <p className="run-facts">
            {status && (
              <span className={`badge status-${runStatusTone(status)}`} data-testid="run-status">
                {status}
              </span>
            )}
            {loaded && (
              <>
                <span>
                  Agent <strong>{loaded.agentId}</strong>
                </span>
                <span>{loaded.background ? 'background' : 'foreground'}</span>
                <span>launch {root?.epoch ?? loaded.epoch}</span>
                <span>
                  owner <code>{loaded.ownerThreadId}</code>
                </span>
              </>
            )}
          </p>
        </div>
        <div className="page-actions">
          {status &&
            runActionsFor(status).map((action) =>
              action === 'stop' ? (
                <button
                  key="stop"
                  type="button"
                  className="danger"
                  disabled={acting !== undefined}
                  onClick={() => setConfirmStop(runningDescendants(store, runId))}
                >
                  {acting === 'stop' ? 'Stopping…' : 'Stop'}
                </button>
              ) : (
                <button key="resume" type="button" className="primary" disabled={acting !== undefined} onClick={() => void act('resume')}>
                  {acting === 'resume' ? 'Resuming…' : 'Resume'}
                </button>
              ),
            )}
        </div>
      </div>
      <ErrorNote error={header.error} title="The run could not be loaded" />
      <ErrorNote error={actionError} title="The service refused" />
      {done && (
        <p className="notice" role="status">
          {done}
        </p>
      )}

      <div className="run-summary">
        {loaded && (
          <div className="aside-card">
            <h2>Prompt</h2>
            <p className="run-text">{loaded.prompt}</p>
          </div>
        )}
        {(output || error || stoppedBy) && (
          <div className="aside-card">
            <h2>{stoppedBy ? 'Stop reason' : error ? 'Error' : 'Output'}</h2>
            {stoppedBy && <p data-testid="stop-reason">{describeStop(stoppedBy)}</p>}
            {error && <p className="problem-text run-text">{error}</p>}
            {output && <p className="run-text">{output}</p>}
          </div>
        )}
        {(policy || budget) && (
          <div className="aside-card">
            <h2>Limits</h2>
            {budget && (
              <ul className="budget-lines" aria-label="Budget">
                {budget.map((line) => (
                  <li key={line.limit} data-limit={line.limit}>
                    <span className="budget-label">{line.label}</span>
                    <meter min={0} max={1} low={0.8} high={0.99} optimum={0} value={line.share} aria-label={`${line.label} used`} />
                    <span className="budget-text">{line.text}</span>
                  </li>
                ))}
              </ul>
            )}
            {policy && (
              <dl className="facts">
                <dt>Time limit</dt>
                <dd>
                  {policy.timeoutMs ? formatDuration(policy.timeoutMs) : 'none'}
                  {root && root.status === 'running' && policy.timeoutMs
                    ? ` (${formatDuration(Math.max(0, policy.timeoutMs - durationMs(root, now)))} left)`
                    : ''}
                </dd>
                <dt>Depth below it</dt>
                <dd>at most {policy.maxDepth ?? '?'} levels</dd>
                <dt>Running children</dt>
                <dd>at most {policy.maxConcurrentChildren ?? '?'} at once</dd>
              </dl>
            )}
          </div>
        )}
      </div>

      <h2 id="tree-title">Run tree and timeline</h2>
      <p className="muted small" role="status">
        {rows.length === 0
          ? 'Waiting for the run’s events…'
          : `${rows[0].subtree.runs} run${rows[0].subtree.runs === 1 ? '' : 's'}, ${rows[0].subtree.tokens} tokens, ${rows[0].subtree.toolCalls} tool calls in the subtree`}
      </p>
      <WaitingApprovals approvals={inThisTree} />
      <div className="run-layout">
        <div className="table-scroll run-tree-wrap" ref={treeScroll}>
          <table className="data-table run-tree" aria-labelledby="tree-title" aria-rowcount={rows.length + 1}>
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Status</th>
                <th scope="col">Mode</th>
                <th scope="col">Tokens own / subtree</th>
                <th scope="col">Tools</th>
                <th scope="col">Duration</th>
                <th scope="col" className="timeline-head">
                  <span className="visually-hidden">Timeline</span>
                  <TimelineTicks ticks={ticks} />
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.above > 0 && <SpacerRow height={shown.above} />}
              {rows.slice(shown.first, shown.end).map((row, i) => (
                <TreeRowView
                  key={row.run.runId}
                  rowIndex={shown.first + i + 2}
                  run={row.run}
                  level={row.level}
                  hasChildren={row.hasChildren}
                  open={!collapsed.has(row.run.runId)}
                  selected={selected === row.run.runId}
                  waitingApproval={waitingByRun.get(row.run.runId)}
                  subtreeTokens={row.subtree.tokens}
                  subtreeRuns={row.subtree.runs}
                  now={row.run.endedAt ? 0 : now}
                  axisStart={axis.start}
                  axisEnd={axis.end}
                  onToggle={toggle}
                  onSelect={setSelected}
                />
              ))}
              {shown.below > 0 && <SpacerRow height={shown.below} />}
            </tbody>
          </table>
        </div>
        {selectedRun && <RunDetails run={selectedRun} now={now} onClose={() => setSelected(undefined)} />}
      </div>

      <EventHistory history={live.history} dropped={live.dropped} types={live.types} version={version} />

      {confirmStop !== undefined && (
        <ConfirmStop runId={runId} descendants={confirmStop} onCancel={() => setConfirmStop(undefined)} onConfirm={() => void act('stop')} />
      )}
    </section>
  );
}

function TimelineTicks({ ticks }: { ticks: Array<{ at: number; label: string }> }) {
  return (
    <div className="timeline-ticks" aria-hidden="true">
      {ticks.map((t) => (
        <span key={t.label} style={{ left: `${t.at}%` }}>
          {t.label}
        </span>
      ))}
    </div>
  );
}

/** The tree's row height in px; styles.css gives `.run-tree tbody tr` the same (windowing needs it fixed). */
const TREE_ROW_HEIGHT = 36;

/** Stands in for the rows scrolled out of view, so the scrollbar keeps the whole tree's length. */
function SpacerRow({ height }: { height: number }) {
  return (
    <tr className="spacer-row" aria-hidden="true" style={{ height }}>
      <td colSpan={7} />
    </tr>
  );
}

interface TreeRowProps {
  /** aria-rowindex: its place in the whole tree, since only the rows in view are in the DOM. */
  rowIndex: number;
  run: RunNode;
  level: number;
  hasChildren: boolean;
  open: boolean;
  selected: boolean;
  /** The id of a request of this run that waits for a person. */
  waitingApproval?: string;
  subtreeTokens: number;
  subtreeRuns: number;
  /** 0 for an ended run, so its row does not re-render with the clock. */
  now: number;
  /** The axis as numbers: a frame that leaves it unchanged leaves the memoized rows alone. */
  axisStart: number;
  axisEnd: number;
  onToggle: (id: string) => void;
  onSelect: (id: string) => void;
}

// Run ids are UUIDv7 (time first): their tail, not their head, tells siblings apart.
// Memoized: a frame's events replace only the runs they touch, so only those rows (and the running
// ones, whose bars grow with the clock) render again.
const TreeRowView = memo(function TreeRowView({
  rowIndex,
  run,
  level,
  hasChildren,
  open,
  selected,
  waitingApproval,
  subtreeTokens,
  subtreeRuns,
  now,
  axisStart,
  axisEnd,
  onToggle,
  onSelect,
}: TreeRowProps) {
  // An ended run's bar and duration do not read the clock.
  const bar = barOf(run, { start: axisStart, end: axisEnd }, now);
  const duration = formatDuration(durationMs(run, now));
  return (
    <tr data-run={run.runId} aria-rowindex={rowIndex} className={selected ? 'selected' : undefined}>
      <th scope="row" className="tree-cell" style={{ paddingLeft: `${8 + level * 18}px` }}>
        {hasChildren ? (
          <button
            type="button"
            className="tree-toggle"
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} the runs under ${run.agentId} ${run.runId}`}
            onClick={() => onToggle(run.runId)}
          >
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="tree-toggle-space" aria-hidden="true" />
        )}
        <button type="button" className="link-button" aria-pressed={selected} onClick={() => onSelect(run.runId)} title={run.runId}>
          {run.agentId}
        </button>
        <span className="muted small mono"> {run.runId.slice(-8)}</span>
      </th>
      <td>
        {waitingApproval && run.status === 'running' ? (
          <a className="badge status-waiting" href={approvalHref(waitingApproval)} onClick={linkHandler(approvalHref(waitingApproval))}>
            waiting for approval
          </a>
        ) : (
          <span className={`badge status-${runStatusTone(run.status)}`}>{run.status}</span>
        )}
      </td>
      <td>{run.background ? 'bg' : 'fg'}</td>
      <td>
        {run.inputTokens + run.outputTokens} / {subtreeTokens}
        {subtreeRuns > 1 && <span className="muted small"> ({subtreeRuns})</span>}
      </td>
      <td>{run.toolCalls}</td>
      <td>{duration}</td>
      <td className="timeline-cell">
        <div className="timeline-track">
          <div
            className={`timeline-bar tone-${runStatusTone(run.status)}${bar.running ? ' running' : ''}`}
            data-bar={run.runId}
            style={{ left: `${bar.left}%`, width: `${bar.width}%` }}
            title={`${run.agentId}: ${duration}`}
          />
        </div>
      </td>
    </tr>
  );
});

function RunDetails({ run, now, onClose }: { run: RunNode; now: number; onClose: () => void }) {
  return (
    <aside className="aside-card run-details" aria-labelledby="run-details-title">
      <div className="run-details-head">
        <h2 id="run-details-title">{run.agentId}</h2>
        <button type="button" className="ghost" onClick={onClose} aria-label="Close the run details">
          ✕
        </button>
      </div>
      <dl className="facts">
        <dt>Run</dt>
        <dd>
          <a className="mono" href={`/runs/${run.runId}`} onClick={linkHandler(`/runs/${run.runId}`)}>
            {run.runId}
          </a>
        </dd>
        <dt>Status</dt>
        <dd>
          <span className={`badge status-${runStatusTone(run.status)}`}>{run.status}</span>
        </dd>
        <dt>Mode</dt>
        <dd>{run.background ? 'background' : 'foreground'}</dd>
        <dt>Depth</dt>
        <dd>{run.depth}</dd>
        <dt>Tokens</dt>
        <dd>
          {run.inputTokens} in, {run.outputTokens} out
        </dd>
        <dt>Tool calls</dt>
        <dd>{run.toolCalls}</dd>
        <dt>Started</dt>
        <dd>{new Date(run.startedAt).toLocaleString()}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(durationMs(run, now))}</dd>
      </dl>
      <h3>Prompt</h3>
      <p className="run-text">{run.prompt}</p>
      {run.output && (
        <>
          <h3>Output</h3>
          <p className="run-text">{run.output}</p>
        </>
      )}
      {run.error && (
        <>
          <h3>Error</h3>
          <p className="problem-text run-text">{run.error}</p>
        </>
      )}
      {run.stoppedBy && <p>{describeStop(run.stoppedBy)}</p>}
    </aside>
  );
}

function EventHistory({
  history,
  dropped,
  types,
  version,
}: {
  history: readonly RunStreamEvent[];
  dropped: number;
  types: ReadonlyMap<string, number>;
  version: number;
}) {
  const [type, setType] = useState('');
  const [shown, setShown] = useState(HISTORY_WINDOW);
  // Newest last; only the last `shown` matching events are in the DOM. One backward scan, stopping once enough are found.
  const { visible, more } = useMemo(() => {
    const picked: RunStreamEvent[] = [];
    let i = history.length - 1;
    for (; i >= 0 && picked.length < shown; i--) if (!type || history[i].type === type) picked.push(history[i]);
    let rest = false;
    for (; i >= 0 && !rest; i--) rest = !type || history[i].type === type;
    return { visible: picked.reverse(), more: rest };
  }, [history, type, shown, version]); // eslint-disable-line react-hooks/exhaustive-deps -- the history grows in place; version says when
  const typeList = useMemo(() => [...types.keys()].sort(), [types, version]); // eslint-disable-line react-hooks/exhaustive-deps -- as above

  return (
    <section className="event-history" aria-labelledby="history-title">
      <div className="history-head">
        <h2 id="history-title">Events</h2>
        <div className="field inline-field">
          <label htmlFor="history-type">Type</label>
          <select id="history-type" value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">All types ({history.length})</option>
            {typeList.map((t) => (
              <option key={t} value={t}>
                {t} ({types.get(t)})
              </option>
            ))}
          </select>
        </div>
      </div>
      {(more || dropped > 0) && (
        <p className="history-more">
          {more && (
            <button type="button" onClick={() => setShown((n) => n + HISTORY_WINDOW)}>
              Show {HISTORY_WINDOW} earlier events
            </button>
          )}
          {dropped > 0 && !more && (
            <span className="muted small">
              The oldest {dropped} events are not kept in the page (it keeps the newest {HISTORY_CAP}); the audit log has them all.
            </span>
          )}
        </p>
      )}
      <ol className="event-list" aria-label="Events of the run and its descendants, newest last">
        {visible.map((event) => (
          <EventRow key={event.globalPosition} event={event} />
        ))}
      </ol>
    </section>
  );
}

const EventRow = memo(function EventRow({ event }: { event: RunStreamEvent }) {
  const [open, setOpen] = useState(false);
  return (
    <li className="event-row" data-type={event.type}>
      <div className="event-line">
        <span className="muted small">#{event.globalPosition}</span>
        <time className="small" dateTime={event.recordedAt}>
          {new Date(event.recordedAt).toLocaleTimeString()}
        </time>
        <span className="mono event-type">{event.type}</span>
        <span className="muted small mono event-stream">{event.streamId}</span>
        <button
          type="button"
          className="link-button"
          aria-expanded={open}
          aria-label={`${open ? 'Hide' : 'Show'} the JSON of event ${event.globalPosition}`}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide JSON' : 'JSON'}
        </button>
      </div>
      {open && (
        // Focusable: a long event scrolls, and a keyboard must be able to scroll it.
        <pre className="mono event-json" tabIndex={0} aria-label={`JSON of event ${event.globalPosition}`}>
          {JSON.stringify(event, null, 2)}
        </pre>
      )}
    </li>
  );
});

function ConfirmStop({ runId, descendants, onCancel, onConfirm }: { runId: string; descendants: number; onCancel: () => void; onConfirm: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="confirm-stop-title" onCancel={onCancel}>
      <h2 id="confirm-stop-title">Stop this run?</h2>
      <p>
        <code className="session-id">{runId}</code>
      </p>
      <p data-testid="stop-count">
        {descendants === 0
          ? 'This stops the run; nothing below it is running.'
          : `This stops the run and ${descendants} running descendant${descendants === 1 ? '' : 's'}.`}{' '}
        A stopped run can be resumed later.
      </p>
      <div className="dialog-actions">
        <button type="button" onClick={onCancel} autoFocus>
          Keep it running
        </button>
        <button type="button" className="danger" onClick={onConfirm}>
          Stop
        </button>
      </div>
    </dialog>
  );
}
