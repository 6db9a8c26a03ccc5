import { Link } from 'react-router';
import { runStatusTone } from '../run-list';
import { describeStop, durationMs, formatDuration, type RunNode } from '../run-tree';

/** The run picked in the tree: its facts, prompt, output or error. */
export function RunDetails({ run, now, onClose }: { run: RunNode; now: number; onClose: () => void }) {
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
          <Link className="mono" to={`/runs/${run.runId}`}>
            {run.runId}
          </Link>
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
