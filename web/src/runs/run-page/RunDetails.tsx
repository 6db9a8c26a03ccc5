import { Link } from 'react-router';
import { useMay } from '../../api/me';
import { SteerBox } from '../../ui/SteerBox';
import { useSteerRun } from '../mutations';
import { Icon } from '../../ui/icons';
import { Markdown } from '../../ui/Markdown';
import { spendText, type RunSpend } from '../../model-calls';
import { runStatusTone } from '../run-list';
import { plainReason } from '../timeline';
import { describeStop, durationMs, formatDuration, type RunNode } from '../run-tree';

/** The run picked in the tree: its facts, prompt, output or error; a Steer box while it runs (`steerable`: not the page's own run, which has one above). */
export function RunDetails({
  run,
  status,
  now,
  spend,
  steerable = true,
  onClose,
}: {
  run: RunNode;
  /** Its status as the page shows it (statusUnderPause). */
  status: string;
  now: number;
  spend?: RunSpend;
  steerable?: boolean;
  onClose: () => void;
}) {
  const mayOperate = useMay('operate');
  const steerRun = useSteerRun();
  return (
    <aside className="aside-card run-details" aria-labelledby="run-details-title">
      <div className="run-details-head">
        <h2 id="run-details-title">{run.agentId}</h2>
        <button type="button" className="ghost" onClick={onClose} aria-label="Close the run details">
          <Icon name="deny" />
        </button>
      </div>
      <dl className="facts">
        <dt>Run</dt>
        <dd>
          <Link className="mono" to={`/runs/${run.runId}`}>
            {run.runId}
          </Link>
        </dd>
        <dt>Status</dt>
        <dd>
          <span className={`badge status-${runStatusTone(status)}`}>{status}</span>
        </dd>
        <dt>How it ran</dt>
        <dd>{run.background ? 'In the background' : 'Its caller waited for it'}</dd>
        <dt>Levels below the top</dt>
        <dd>{run.depth}</dd>
        <dt>Tokens</dt>
        <dd>
          {run.inputTokens} in, {run.outputTokens} out
        </dd>
        {spend && (
          <>
            <dt>Model calls</dt>
            <dd>{spendText(spend.own)}</dd>
          </>
        )}
        <dt>Tool calls</dt>
        <dd>{run.toolCalls}</dd>
        <dt>Started</dt>
        <dd>{new Date(run.startedAt).toLocaleString()}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(durationMs(run, now))}</dd>
      </dl>
      {steerable && mayOperate && run.status === 'running' && (
        <SteerBox
          name={`Steer ${run.agentId}`}
          key={run.runId}
          idPrefix={`steer-node-${run.runId}`}
          targets={[{ subagentId: '', label: run.agentId }]}
          onSteer={async (message) => void (await steerRun.mutateAsync({ runId: run.runId, message }))}
        />
      )}
      <h3>Task</h3>
      <Markdown className="run-text" text={run.prompt} />
      {run.output && (
        <>
          <h3>Answer</h3>
          <Markdown className="run-text" text={run.output} />
        </>
      )}
      {run.error && (
        <>
          <h3>Error</h3>
          <p className="problem-text run-text">{run.status === 'interrupted' ? plainReason(run.error) : run.error}</p>
        </>
      )}
      {run.stoppedBy && <p>{describeStop(run.stoppedBy)}</p>}
      {/* Picking the run narrowed the timeline to it: one click to read what it did. */}
      <p>
        <button type="button" className="link-button" onClick={() => document.getElementById('timeline-title')?.scrollIntoView({ block: 'start' })}>
          Read its steps in the timeline
        </button>
      </p>
    </aside>
  );
}
