import { memo } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../ui/icons';
import { approvalHref } from '../../approvals';
import { runStatusTone } from '../run-list';
import { durationMs, formatDuration, type RunNode } from '../run-tree';
import { barOf } from '../waterfall';

export function TimelineTicks({ ticks }: { ticks: Array<{ at: number; label: string }> }) {
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
export const TREE_ROW_HEIGHT = 36;

/** Stands in for the rows scrolled out of view, so the scrollbar keeps the whole tree's length. */
export function SpacerRow({ height }: { height: number }) {
  return (
    <tr className="spacer-row" aria-hidden="true" style={{ height }}>
      <td colSpan={8} />
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
  /** Its status as the page shows it (statusUnderPause). */
  status: string;
  /** The id of a request of this run that waits for a person. */
  waitingApproval?: string;
  subtreeTokens: number;
  subtreeRuns: number;
  /** The cost cells as worded (model-call-figures' spendCell): strings, so a memoized row compares them cheaply. */
  ownCost: string;
  subtreeCost: string;
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
export const TreeRowView = memo(function TreeRowView({
  rowIndex,
  run,
  level,
  hasChildren,
  open,
  selected,
  waitingApproval,
  status,
  subtreeTokens,
  subtreeRuns,
  ownCost,
  subtreeCost,
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
            <Icon name={open ? 'expanded' : 'collapsed'} size={14} />
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
        {waitingApproval && status === 'running' ? (
          <Link className="badge status-waiting" to={approvalHref(waitingApproval)}>
            waiting for approval
          </Link>
        ) : (
          <span className={`badge status-${runStatusTone(status)}`} data-testid="tree-run-status">
            {status}
          </span>
        )}
      </td>
      <td>{run.background ? 'background' : 'waited for'}</td>
      <td>
        {run.inputTokens + run.outputTokens} / {subtreeTokens}
        {subtreeRuns > 1 && <span className="muted small"> ({subtreeRuns})</span>}
      </td>
      <td data-testid="run-cost">{ownCost || subtreeCost ? `${ownCost || '–'} / ${subtreeCost || '–'}` : ''}</td>
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
