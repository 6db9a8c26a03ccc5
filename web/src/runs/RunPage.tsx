import { useEffect, useMemo, useState } from 'react';
import { useMay } from '../api/me';
import { Link } from 'react-router';
import { usePendingApprovals } from '../approvals';
import { RunChanges, type StepLinks } from '../changes';
import { ErrorNote } from '../ui/ErrorNote';
import { SteerBox } from '../ui/SteerBox';
import { useSteerRun } from './mutations';
import { runStatusTone, statusUnderPause } from './run-list';
import { runningDescendants } from './run-tree';
import { ConfirmStop } from './run-page/ConfirmStop';
import { RunActions } from './run-page/RunActions';
import { RemoteRunNote, RunStart } from './run-page/RunOwner';
import { RunModelCalls } from './run-page/RunModelCalls';
import { RunReplay } from './run-page/RunReplay';
import { RunTimeline } from './run-page/RunTimeline';
import { RunSummary } from './run-page/RunSummary';
import { RunTreePanel } from './run-page/RunTreePanel';
import { useRunActions } from './run-page/use-run-actions';
import { useRunHeader } from './run-page/use-run-header';
import { oneLine, stepOfToolCall } from './timeline';
import { useRunEvents } from './use-run-events';

/**
 * One run and its subtree, live: the header and actions, the summary, the tree with its waterfall and
 * the timeline of steps are components of their own (./run-page); this page wires them to the run. The
 * run picked in the tree narrows the timeline to it.
 */
export function RunPage({ runId }: { runId: string }) {
  const mayOperate = useMay('operate');
  const live = useRunEvents(runId);
  const { store, version } = live;
  const root = store.runs.get(runId);
  const header = useRunHeader(runId, root?.status);
  const loaded = header.data?.run;
  const actions = useRunActions(runId);
  const steerRun = useSteerRun();
  const treeRoot = loaded ? (loaded.rootRunId ?? loaded.runId) : undefined;
  const waiting = usePendingApprovals(useMemo(() => (treeRoot ? { rootRunId: treeRoot } : undefined), [treeRoot]));
  const pause = loaded?.pause ?? undefined;
  const liveStatus = root?.status ?? loaded?.status;
  // The live events say running; the pause (another stream) comes with the header.
  const status = liveStatus && statusUnderPause(liveStatus, pause !== undefined);
  const [selected, setSelected] = useState<string | undefined>();
  // A checkpoint's "Show in the timeline": the tool call to bring into view (the nonce asks again for the same one).
  const [focus, setFocus] = useState<{ toolCallId: string; nonce: number } | undefined>();
  const steps: StepLinks = useMemo(
    () => ({
      has: (toolCallId) => stepOfToolCall(live.timeline, toolCallId) !== undefined,
      show: (toolCallId) => {
        // The timeline narrowed to another run would hide the step: show every run again.
        const step = stepOfToolCall(live.timeline, toolCallId);
        setSelected((current) => (step && current !== undefined && current !== step.runId ? undefined : current));
        setFocus((current) => ({ toolCallId, nonce: (current?.nonce ?? 0) + 1 }));
      },
    }),
    [live.timeline, version], // eslint-disable-line react-hooks/exhaustive-deps -- the timeline grows in place; version says when
  );
  const agent = root?.agentId ?? loaded?.agentId;
  const task = root?.prompt ?? loaded?.prompt;
  const epoch = root?.epoch ?? loaded?.epoch ?? 1;
  // The browser's tab says which run too: the agent and its task, not an id.
  useEffect(() => {
    if (!agent) return;
    const before = document.title;
    document.title = `${agent}: ${oneLine(task ?? '', 60)} · Switchboard`;
    return () => void (document.title = before);
  }, [agent, task]);

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
            <Link to={`/runs/${loaded.parentRunId}`}>the run that gave it this task</Link>
          </>
        )}
      </p>
      <div className="page-head">
        <div>
          <h1 id="run-title">
            {agent ? (
              <>
                {agent}
                {task && <span className="run-title-task">: {oneLine(task, 90)}</span>}
              </>
            ) : (
              'Run'
            )}
          </h1>
          <p className="run-facts">
            {status && (
              <span className={`badge status-${runStatusTone(status)}`} data-testid="run-status">
                {status}
              </span>
            )}
            {loaded && (
              <>
                <span>{loaded.background ? 'Ran in the background: its caller went on working' : 'Its caller waited for it'}</span>
                {epoch > 1 && <span>Resumed {epoch - 1 === 1 ? 'once' : `${epoch - 1} times`}</span>}
                <RunStart run={loaded} />
                {loaded.remote && <RemoteRunNote remote={loaded.remote} />}
                <span className="muted small">
                  Run id <code className="run-title-id">{runId}</code>
                </span>
              </>
            )}
          </p>
          {pause && (
            <p className="small" data-testid="pause-note">
              Paused{' '}
              {pause.target === 'run' && pause.runId !== runId ? (
                <Link to={`/runs/${pause.runId}`}>above it</Link>
              ) : pause.target === 'session' ? (
                'with the session that started it'
              ) : (
                ''
              )}{' '}
              since {new Date(pause.since).toLocaleTimeString()} by {pause.by}: {pause.held} step{pause.held === 1 ? '' : 's'} waiting. A tool already
              running finishes; its next step waits.
            </p>
          )}
          {status === 'interrupted' && (
            <p className="small" data-testid="interrupted-note">
              It was cut off before it finished. Resume launches it again where it left off.
            </p>
          )}
        </div>
        {mayOperate && (
          <RunActions
            status={status}
            paused={pause ? (pause.target === 'run' && pause.runId === runId ? 'own' : 'above') : undefined}
            acting={actions.acting}
            onPause={() => void actions.act('pause')}
            onUnpause={() => void actions.act('unpause')}
            onStop={() => actions.askStop(runningDescendants(store, runId))}
            onResume={() => void actions.act('resume')}
            onReplay={() => void actions.replay()}
          />
        )}
      </div>
      <ErrorNote error={header.error} title="The run could not be loaded" />
      <ErrorNote error={actions.actionError} title="The service refused" />
      {actions.done && (
        <p className="notice" role="status">
          {actions.done}
        </p>
      )}

      {status === 'running' && mayOperate && (
        <SteerBox
          idPrefix="steer-run"
          targets={[{ subagentId: '', label: agent ?? 'the run' }]}
          onSteer={async (message) => void (await steerRun.mutateAsync({ runId, message }))}
        />
      )}

      <RunSummary loaded={loaded ?? undefined} root={root} />
      <RunReplay run={loaded ?? undefined} />
      <RunTreePanel
        runId={runId}
        store={store}
        version={version}
        waiting={waiting}
        paused={pause !== undefined}
        selected={selected}
        onSelect={setSelected}
      />
      <RunChanges
        runId={runId}
        agentOf={(id) => store.runs.get(id)?.agentId}
        version={version}
        live={status === 'running' || status === 'paused'}
        steps={steps}
        originalRunId={loaded?.replayOf ?? undefined}
      />
      <RunModelCalls
        runId={runId}
        selected={selected}
        selectedAgent={selected ? store.runs.get(selected)?.agentId : undefined}
        version={version}
        forking={
          mayOperate && status !== undefined && status !== 'running'
            ? { busy: actions.acting !== undefined, fork: (callId, message) => void actions.fork(callId, message) }
            : undefined
        }
      />
      <RunTimeline
        timeline={live.timeline}
        store={store}
        dropped={live.dropped}
        version={version}
        selectedRunId={selected}
        onSelectRun={setSelected}
        focus={focus}
      />

      {actions.confirmStop !== undefined && (
        <ConfirmStop runId={runId} descendants={actions.confirmStop} onCancel={actions.cancelStop} onConfirm={() => void actions.act('stop')} />
      )}
    </section>
  );
}
