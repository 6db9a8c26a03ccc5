import { runActionsFor } from '../run-list';
import type { RunAction } from './use-run-actions';

/** Stop or Resume, as the run's status allows. */
export function RunActions({
  status,
  acting,
  onStop,
  onResume,
}: {
  status: string | undefined;
  acting: RunAction | undefined;
  onStop: () => void;
  onResume: () => void;
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
    </div>
  );
}
