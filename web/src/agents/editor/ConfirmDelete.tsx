import { useModalDialog } from '../../ui/modal-dialog';

/** Asks before deleting, naming the teams the agent is a sub-agent of. */
export function ConfirmDelete({
  name,
  teams,
  onCancel,
  onConfirm,
}: {
  name: string;
  teams: readonly string[];
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const dialog = useModalDialog();
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="delete-title" onCancel={onCancel}>
      <h2 id="delete-title">Delete {name}?</h2>
      {teams.length > 0 ? (
        <p>
          It is a sub-agent in the team of <strong>{teams.join(', ')}</strong>. Those agents will show it as a problem, and their sessions will not start
          until it is removed from them.
        </p>
      ) : (
        <p>No team includes it. Its history stays in the event log.</p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onCancel} autoFocus>
          Keep it
        </button>
        <button type="button" className="danger" onClick={onConfirm}>
          Delete
        </button>
      </div>
    </dialog>
  );
}
