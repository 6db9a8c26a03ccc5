import { useMemo } from 'react';
import { Link } from 'react-router';
import { usePendingApprovals } from '../approvals/WaitingApprovals';
import { ErrorNote } from '../ui/ErrorNote';
import { runStatusTone } from './run-list';
import { runningDescendants } from './run-tree';
import { ConfirmStop } from './run-page/ConfirmStop';
import { EventHistory } from './run-page/EventHistory';
import { RunActions } from './run-page/RunActions';
import { RunSummary } from './run-page/RunSummary';
import { RunTreePanel } from './run-page/RunTreePanel';
import { useRunActions } from './run-page/use-run-actions';
import { useRunHeader } from './run-page/use-run-header';
import { useRunEvents } from './use-run-events';

/**
 * One run and its subtree, live: the header and actions, the summary, the tree with its timeline and
 * the event history are components of their own (./run-page); this page wires them to the run.
 */
export function RunPage({ runId }: { runId: string }) {
  const live = useRunEvents(runId);
  const { store, version } = live;
  const root = store.runs.get(runId);
  const header = useRunHeader(runId, root?.status);
  const loaded = header.data?.run;
  const actions = useRunActions(runId, () => void header.refetch());
  const treeRoot = loaded ? (loaded.rootRunId ?? loaded.runId) : undefined;
  const waiting = usePendingApprovals(useMemo(() => (treeRoot ? { rootRunId: treeRoot } : undefined), [treeRoot]));
  const status = root?.status ?? loaded?.status;

  if (header.data && !loaded) {
    return (
      <section className="page" aria-labelledby="run-title">
        <h1 id="run-title">Run not found</h1>
        <p>
          No run has the id <code>{runId}</code>. <Link to="/runs">Back to the runs</Link>.
        </p>
      </section>
    );
  }

  return (
    <section className="page run-page" aria-labelledby="run-title">
      <p className="breadcrumb">
        <Link to="/runs">Runs</Link>
        {loaded?.parentRunId && (
          <>
            {' / '}
            <Link to={`/runs/${loaded.parentRunId}`}>parent run</Link>
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
        <RunActions
          status={status}
          acting={actions.acting}
          onStop={() => actions.askStop(runningDescendants(store, runId))}
          onResume={() => void actions.act('resume')}
        />
      </div>
      <ErrorNote error={header.error} title="The run could not be loaded" />
      <ErrorNote error={actions.actionError} title="The service refused" />
      {actions.done && (
        <p className="notice" role="status">
          {actions.done}
        </p>
      )}

      <RunSummary loaded={loaded ?? undefined} root={root} />
      <RunTreePanel runId={runId} store={store} version={version} waiting={waiting} />
      <EventHistory history={live.history} dropped={live.dropped} types={live.types} version={version} />

      {actions.confirmStop !== undefined && (
        <ConfirmStop runId={runId} descendants={actions.confirmStop} onCancel={actions.cancelStop} onConfirm={() => void actions.act('stop')} />
      )}
    </section>
  );
}
