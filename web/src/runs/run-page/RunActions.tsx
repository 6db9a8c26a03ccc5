import { runActionsFor } from '../run-list';
import type { RunAction } from './use-run-actions';

/** Stop or Resume, as the run's status allows; Replay once it ended (issue 26). */
export function RunActions({
  status,
  acting,
  onStop,
  onResume,
  onReplay,
}: {
  status: string | undefined;
  acting: RunAction | undefined;
  onStop: () => void;
  onResume: () => void;
  onReplay: () => void;
}) {
  return (
    <div className="page-actions">
      {status &&
        runActionsFor(status).map((action) =>
          action === 'stop' ? (
            <button key="stop" type="button" className="danger" disabled={acting !== undefined} onClick={onStop}>
              {acting === 'stop' ? 'Stopping…' : 'Stop'}
            </button>
          ) : (
            <button key="resume" type="button" className="primary" disabled={acting !== undefined} onClick={onResume}>
              {acting === 'resume' ? 'Resuming…' : 'Resume'}
            </button>
          ),
        )}
      {status && status !== 'running' && (
        <button
          type="button"
          disabled={acting !== undefined}
          onClick={onReplay}
          title="A new run answered from this run's record: no model call is sent, side effects are denied, it stops at the first difference"
        >
          {acting === 'replay' ? 'Replaying…' : 'Replay'}
        </button>
      )}
    </div>
  );
}
