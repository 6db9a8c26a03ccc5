import { useModalDialog } from '../../ui/modal-dialog';

/** Asks before stopping, saying how many running descendants stop with it. */
export function ConfirmStop({
  runId,
  descendants,
  onCancel,
  onConfirm,
}: {
  runId: string;
  descendants: number;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const dialog = useModalDialog();
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="confirm-stop-title" onCancel={onCancel}>
      <h2 id="confirm-stop-title">Stop this run?</h2>
      <p>
        <code className="session-id">{runId}</code>
      </p>
      <p data-testid="stop-count">
        {descendants === 0
          ? 'This stops the run; nothing below it is running.'
          : `This stops the run and ${descendants} running descendant${descendants === 1 ? '' : 's'}.`}{' '}
        A stopped run can be resumed later.
      </p>
      <div className="dialog-actions">
        <button type="button" onClick={onCancel} autoFocus>
          Keep it running
        </button>
        <button type="button" className="danger" onClick={onConfirm}>
          Stop
        </button>
      </div>
    </dialog>
  );
}
