import { runActionsFor } from '../run-list';
import type { RunAction } from './use-run-actions';

/** Stop or Resume, as the run's status allows; Pause or Unpause while it runs, saying what a pause holds; Replay once it ended (issue 26). */
export function RunActions({
  status,
  paused,
  acting,
  onStop,
  onResume,
  onReplay,
  onPause,
  onUnpause,
}: {
  status: string | undefined;
  /** A pause over this very run (not one above it: that one is unpaused where it was paused). */
  paused: 'own' | 'above' | undefined;
  acting: RunAction | undefined;
  onStop: () => void;
  onResume: () => void;
  onReplay: () => void;
  onPause: () => void;
  onUnpause: () => void;
}) {
  const running = status === 'running' || status === 'paused';
  return (
    <div className="page-actions">
      {running && paused === undefined && (
        <button
          type="button"
          disabled={acting !== undefined}
          onClick={onPause}
          title="Holds this run and every run under it at their next step: model calls, tool calls, permission requests, hooks and questions wait. A tool already running finishes."
        >
          {acting === 'pause' ? 'Pausing…' : 'Pause'}
        </button>
      )}
      {paused === 'own' && (
        <button type="button" className="primary" disabled={acting !== undefined} onClick={onUnpause} title="Lets what waited go on, in the order it came">
          {acting === 'unpause' ? 'Unpausing…' : 'Unpause'}
        </button>
      )}
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
      {status && !running && (
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
