import type { ReactNode } from 'react';
import { useModalDialog } from './modal-dialog';

interface ConfirmDialogProps {
  /** The heading's id, which names the dialog. */
  titleId: string;
  title: ReactNode;
  /** What the action does, said before it is done. */
  children: ReactNode;
  /** The danger button's text ("Delete", "Revoke"). */
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before an action that cannot be undone: "Keep it" (focused, as Escape) or the danger button. */
export function ConfirmDialog({ titleId, title, children, confirmLabel, onCancel, onConfirm }: ConfirmDialogProps) {
  const dialog = useModalDialog();
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby={titleId} onCancel={onCancel}>
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="dialog-actions">
        <button type="button" onClick={onCancel} autoFocus>
          Keep it
        </button>
        <button type="button" className="danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
