import { ConfirmDialog } from '../../ui/ConfirmDialog';

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
  return (
    <ConfirmDialog titleId="delete-title" title={`Delete ${name}?`} confirmLabel="Delete" onCancel={onCancel} onConfirm={onConfirm}>
      {teams.length > 0 ? (
        <p>
          It is a sub-agent in the team of <strong>{teams.join(', ')}</strong>. Those agents will show it as a problem, and their sessions will not start
          until it is removed from them.
        </p>
      ) : (
        <p>No team includes it. Its history stays in the event log.</p>
      )}
    </ConfirmDialog>
  );
}
