import { Link } from 'react-router';

/** A replay tree's first divergence as the service reports it (the model-call ledger's, both versions cut to 4 KB). */
interface DivergenceReport {
  callId?: string;
  agentName?: string;
  position?: number | null;
  originalCallId?: string | null;
  stopped?: boolean;
  divergence?: { part?: string; at?: string; original?: string; now?: string };
}

const PARTS: Record<string, string> = {
  system: 'its system prompt',
  tools: 'its tool list',
  messages: 'its conversation',
  model: 'its model',
  missing: 'a call the original never made',
};

interface ReplayFacts {
  replayOf?: string | null;
  forkedFrom?: { runId: string; modelCallId: string } | null;
  replay?: {
    mode: string;
    onDivergence?: string | null;
    allowSideEffects?: boolean | null;
    message?: string | null;
    requestedBy?: string | null;
    divergence?: unknown;
  } | null;
  replays?: Array<{ runId: string; status: string; startedAt: string; forkedFrom?: { modelCallId: string } | null }>;
}

function isReport(value: unknown): value is DivergenceReport {
  return typeof value === 'object' && value !== null;
}

/**
 * issue 26: the run's replay lineage both ways (what it replays or forks, and the runs replaying or
 * forking it) and, for a replay, where it first differed from its original, with both versions.
 */
export function RunReplay({ run }: { run: ReplayFacts | undefined }) {
  if (!run) return null;
  const replays = run.replays ?? [];
  if (!run.replayOf && replays.length === 0) return null;
  const divergence = isReport(run.replay?.divergence) ? run.replay.divergence : undefined;
  return (
    <section className="run-replay" aria-labelledby="run-replay-title">
      <h2 id="run-replay-title">Replay and forks</h2>
      {run.replayOf && run.replay && (
        <p data-testid="replay-of">
          {run.forkedFrom ? (
            <>
              A fork of <Link to={`/runs/${run.forkedFrom.runId}`}>the original run</Link>, live from its model call{' '}
              <code>{run.forkedFrom.modelCallId}</code>
              {run.replay.message && <> with the message “{run.replay.message}”</>}.
            </>
          ) : (
            <>
              A replay of <Link to={`/runs/${run.replayOf}`}>the original run</Link>: model calls answered from its record
              {run.replay.onDivergence === 'live' ? ', live with the model from a difference on' : ', stopped at the first difference'}
              {run.replay.allowSideEffects ? '; side effects allowed' : '; side effects denied'}.
            </>
          )}{' '}
          {run.replay.requestedBy && <span className="muted small">Asked from the {run.replay.requestedBy}.</span>}
        </p>
      )}
      {run.replay && run.replay.mode === 'replay' && !divergence && <p className="small">No difference from the original so far.</p>}
      {divergence && (
        <div className="divergence" role="region" aria-label="Divergence report">
          <p>
            First difference: call {divergence.position ?? '?'} of <strong>{divergence.agentName}</strong> differs in{' '}
            {PARTS[divergence.divergence?.part ?? ''] ?? divergence.divergence?.part}
            {divergence.divergence?.at && <> (at {divergence.divergence.at})</>}
            {divergence.stopped ? '; the replay stopped there.' : '; it went on live.'}
          </p>
          <div className="divergence-versions">
            <figure>
              <figcaption>Then (the original)</figcaption>
              <pre aria-label="Original version">{divergence.divergence?.original ?? '(none)'}</pre>
            </figure>
            <figure>
              <figcaption>Now (the replay)</figcaption>
              <pre aria-label="Replayed version">{divergence.divergence?.now ?? '(none)'}</pre>
            </figure>
          </div>
        </div>
      )}
      {replays.length > 0 && (
        <>
          <p className="small">Runs that replay or fork this one:</p>
          <ul aria-label="Replays and forks">
            {replays.map((r) => (
              <li key={r.runId}>
                <Link to={`/runs/${r.runId}`}>{r.forkedFrom ? 'Fork' : 'Replay'}</Link> <span className="muted small">{r.status}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
