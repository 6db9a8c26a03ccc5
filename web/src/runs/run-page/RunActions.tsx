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
  // One action at a time: every button waits while any is under way, the acting one saying so.
  const button = (action: RunAction, label: string, busyLabel: string, onClick: () => void, className?: string, title?: string) => (
    <button key={action} type="button" className={className} disabled={acting !== undefined} onClick={onClick} title={title}>
      {acting === action ? busyLabel : label}
    </button>
  );
  return (
    <div className="page-actions">
      {running &&
        paused === undefined &&
        button(
          'pause',
          'Pause',
          'Pausing…',
          onPause,
          undefined,
          'Holds this run and every run under it at their next step: model calls, tool calls, permission requests, hooks and questions wait. A tool already running finishes.',
        )}
      {paused === 'own' && button('unpause', 'Unpause', 'Unpausing…', onUnpause, 'primary', 'Lets what waited go on, in the order it came')}
      {status &&
        runActionsFor(status).map((action) =>
          action === 'stop' ? button('stop', 'Stop', 'Stopping…', onStop, 'danger') : button('resume', 'Resume', 'Resuming…', onResume, 'primary'),
        )}
      {status &&
        !running &&
        button(
          'replay',
          'Replay',
          'Replaying…',
          onReplay,
          undefined,
          "A new run answered from this run's record: no model call is sent, side effects are denied, it stops at the first difference",
        )}
    </div>
  );
}
