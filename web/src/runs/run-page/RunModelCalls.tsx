import { ModelCallList, ModelRouteNote, useModelCallsRecorded } from '../../model-calls/ModelCalls';
import { useRunModelCalls } from '../../model-calls/use-model-calls';

/**
 * The model calls of the subtree, oldest first, or of the run picked in the tree only (as the timeline
 * narrows to it); each with its prompt and answer on demand.
 */
export function RunModelCalls({ runId, selected, selectedAgent, version }: { runId: string; selected?: string; selectedAgent?: string; version: number }) {
  const recorded = useModelCallsRecorded();
  const narrowed = selected !== undefined && selected !== runId;
  const view = useRunModelCalls(narrowed ? selected : runId, !narrowed, version);
  return (
    <section className="run-model-calls" aria-labelledby="model-calls-title">
      <h2 id="model-calls-title">Model calls</h2>
      <ModelRouteNote />
      <p className="muted small">
        {narrowed ? `The calls of ${selectedAgent ?? 'the run picked in the tree'} alone.` : 'Every call of this run and the runs below it.'}
      </p>
      <ModelCallList
        view={view}
        title={narrowed ? `Model calls of ${selectedAgent ?? 'the run'}` : 'Model calls of the subtree'}
        empty={recorded ? 'No model call yet.' : ''}
      />
    </section>
  );
}
