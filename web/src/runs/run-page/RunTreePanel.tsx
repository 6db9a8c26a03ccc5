import { useMemo, useRef, useState } from 'react';
import { type PendingApproval, WaitingApprovals } from '../../approvals';
import { spendCell, useRunTreeSpend } from '../../model-calls';
import { useRowWindow } from '../../ui/row-window';
import { statusUnderPause } from '../run-list';
import { type RunStore, treeRows } from '../run-tree';
import { useNow } from '../use-run-events';
import { axisOf, ticksOf } from '../waterfall';
import { RunDetails } from './RunDetails';
import { RunUsageLine } from './RunUsageLine';
import { SpacerRow, TimelineTicks, TREE_ROW_HEIGHT, TreeRowView } from './TreeRow';
import { ColumnHeads } from '../../ui/ColumnHeads';

/**
 * The run tree with its timeline (collapsible, windowed), the requests of the tree that wait for a
 * person, and the details of the run picked.
 */
export function RunTreePanel({
  runId,
  store,
  version,
  waiting,
  paused,
  selected,
  onSelect,
}: {
  runId: string;
  store: RunStore;
  version: number;
  waiting: PendingApproval[];
  /** The page's run is under a pause: it holds every run of this tree, so running rows say paused as the header does. */
  paused: boolean;
  selected: string | undefined;
  onSelect: (runId: string | undefined) => void;
}) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const rows = useMemo(() => treeRows(store, runId, collapsed), [store, runId, collapsed, version]); // eslint-disable-line react-hooks/exhaustive-deps -- the store is mutated in place; version says when
  const now = useNow(rows.some((r) => r.run.status === 'running'));
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
  // Requests of this tree that wait for a person: flagged on their run's row, listed above the tree.
  const waitingByRun = useMemo(() => new Map(waiting.filter((a) => a.runId).map((a) => [a.runId!, a.id])), [waiting]);
  const inThisTree = waiting.filter((a) => a.runId && store.runs.has(a.runId));
  const selectedRun = selected ? store.runs.get(selected) : undefined;
  // Cost per run and per subtree, as the service sums the model-call ledger.
  const spend = useRunTreeSpend(runId, version);

  const toggle = (id: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <>
      <h2 id="tree-title">Run tree and timeline</h2>
      <RunUsageLine runId={runId} version={version} hasEvents={rows.length > 0} />
      <WaitingApprovals approvals={inThisTree} />
      <div className="run-layout">
        <div className="table-scroll run-tree-wrap" ref={treeScroll}>
          <table className="data-table run-tree" aria-labelledby="tree-title" aria-rowcount={rows.length + 1}>
            <ColumnHeads names={['Run', 'Status', 'How it ran', 'Tokens own / subtree', 'Cost own / subtree', 'Tools', 'Duration']}>
              <th scope="col" className="timeline-head">
                <span className="visually-hidden">Timeline</span>
                <TimelineTicks ticks={ticks} />
              </th>
            </ColumnHeads>
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
                  status={statusUnderPause(row.run.status, paused)}
                  subtreeTokens={row.subtree.tokens}
                  subtreeRuns={row.subtree.runs}
                  ownCost={spendCell(spend.get(row.run.runId)?.own)}
                  subtreeCost={spendCell(spend.get(row.run.runId)?.subtree)}
                  now={row.run.endedAt ? 0 : now}
                  axisStart={axis.start}
                  axisEnd={axis.end}
                  onToggle={toggle}
                  onSelect={onSelect}
                />
              ))}
              {shown.below > 0 && <SpacerRow height={shown.below} />}
            </tbody>
          </table>
        </div>
        {selectedRun && (
          <RunDetails
            run={selectedRun}
            status={statusUnderPause(selectedRun.status, paused)}
            now={now}
            spend={spend.get(selectedRun.runId)}
            steerable={selectedRun.runId !== runId}
            onClose={() => onSelect(undefined)}
          />
        )}
      </div>
    </>
  );
}
