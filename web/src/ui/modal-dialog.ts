import { useEffect, useRef, type RefObject } from 'react';

/**
 * A `<dialog>` that opens as a modal when it mounts (focus trapped, the page behind inert, Escape
 * cancels): the ref goes on the element, and unmounting the component closes it.
 */
export function useModalDialog(): RefObject<HTMLDialogElement | null> {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);
  return dialog;
}
