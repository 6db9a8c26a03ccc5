import type { RunHeaderQuery } from '../../gql/graphql';
import { budgetLines, describeStop, durationMs, formatDuration, type RunNode, type StopReason } from '../run-tree';
import { Markdown } from '../../ui/Markdown';
import { plainReason } from '../timeline';
import { useNow } from '../use-run-events';

export type LoadedRun = NonNullable<RunHeaderQuery['run']>;

/** The prompt, the outcome (output, error or stop reason) and the limits with the budget's use. */
export function RunSummary({ loaded, root }: { loaded: LoadedRun | undefined; root: RunNode | undefined }) {
  const now = useNow(root?.status === 'running');
  // Once the run's events are folded they are the truth (the loaded header may predate a stop or resume).
  const output = root ? root.output : (loaded?.output ?? undefined);
  const status = root?.status ?? loaded?.status;
  const rawError = root ? root.error : (loaded?.error ?? undefined);
  // An interruption's reason tells an API caller how to resume; here the Resume button does that.
  const error = rawError && status === 'interrupted' ? plainReason(rawError) : rawError;
  const stoppedBy = root ? root.stoppedBy : ((loaded?.stoppedBy as StopReason | null | undefined) ?? undefined);
  const policy = loaded?.policy as { timeoutMs?: number; maxDepth?: number; maxConcurrentChildren?: number } | undefined;
  const budget = loaded?.budget && budgetLines(loaded.budget.limits, { ...loaded.budget.used, cost: knownCost(loaded.modelCallSpend) });

  return (
    <div className="run-summary">
      {loaded && (
        <div className="aside-card">
          <h2>Task</h2>
          <Markdown className="run-text" text={loaded.prompt} />
        </div>
      )}
      {(output || error || stoppedBy) && (
        <div className="aside-card">
          <h2>{stoppedBy ? 'Stop reason' : status === 'interrupted' ? 'Interrupted' : error ? 'Error' : 'Answer'}</h2>
          {stoppedBy && <p data-testid="stop-reason">{describeStop(stoppedBy)}</p>}
          {error && <p className="problem-text run-text">{error}</p>}
          {output && <Markdown className="run-text" text={output} />}
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
  );
}

/**
 * The subtree's cost as its model calls say it (the same sum the model-call list shows): the budget's
 * own figure counts a call without a price as 0, which would read "0" beside calls of unknown cost.
 */
function knownCost(spend: { calls: number; cost?: number | null; unpricedCalls: number }): number | undefined {
  if (spend.calls === 0) return 0;
  return spend.cost === null || spend.cost === undefined || spend.unpricedCalls > 0 ? undefined : spend.cost;
}
