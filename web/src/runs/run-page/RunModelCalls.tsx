import { useState } from 'react';
import { ModelCallList, ModelRouteNote, useModelCallsRecorded, type ModelCallRow, useRunModelCalls } from '../../model-calls';

/** issue 26: forking an ended run from one of its calls. */
export interface Forking {
  busy: boolean;
  fork: (callId: string, message?: string) => void;
}

/**
 * The model calls of the subtree, oldest first, or of the run picked in the tree only (as the timeline
 * narrows to it); each with its prompt and answer on demand, and, once the run ended, "Fork from here".
 */
export function RunModelCalls({
  runId,
  selected,
  selectedAgent,
  version,
  forking,
}: {
  runId: string;
  selected?: string;
  selectedAgent?: string;
  version: number;
  forking?: Forking;
}) {
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
        actionsOf={forking ? (call) => (call.status === 'succeeded' ? <ForkFromHere call={call} forking={forking} /> : null) : undefined}
      />
    </section>
  );
}

/** A new run answered from the record up to this call, live with the model from it on, the message appended here. */
function ForkFromHere({ call, forking }: { call: ModelCallRow; forking: Forking }) {
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  if (!open) {
    return (
      <button type="button" className="link-button small" onClick={() => setOpen(true)}>
        Fork from here
      </button>
    );
  }
  return (
    <form
      className="fork-form"
      aria-label={`Fork from this call of ${call.agentName}`}
      onSubmit={(e) => {
        e.preventDefault();
        forking.fork(call.callId, message.trim() || undefined);
      }}
    >
      <p className="muted small">
        The calls before this one are answered from the record; this one and every later one go to the model, with your message added here.
      </p>
      <label className="small">
        Message for {call.agentName} at this call
        <textarea value={message} onChange={(e) => setMessage(e.target.value)} rows={2} />
      </label>
      <button type="submit" className="primary" disabled={forking.busy}>
        {forking.busy ? 'Forking…' : 'Fork'}
      </button>{' '}
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </form>
  );
}
