import { useId, useState } from 'react';
import { saveToken } from '../api/token';
import { useModalDialog } from '../ui/modal-dialog';

/** Asks for SWITCHBOARD_API_TOKEN; the reason is the service's own message (why the last call was refused). */
export function TokenDialog({ reason, onSaved }: { reason: string | undefined; onSaved: () => void }) {
  const [token, setToken] = useState('');
  const dialog = useModalDialog();
  const inputId = useId();
  const reasonId = useId();

  return (
    <dialog ref={dialog} className="dialog" aria-labelledby={`${inputId}-title`} aria-describedby={reasonId} onCancel={(e) => e.preventDefault()}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          if (!token.trim()) return;
          saveToken(token.trim());
          onSaved();
        }}
      >
        <h2 id={`${inputId}-title`}>API token</h2>
        <p id={reasonId} className="dialog-reason" role="alert">
          {reason ?? 'This service needs its API token.'}
        </p>
        <p className="muted">
          It is the value of SWITCHBOARD_API_TOKEN on the server, or an API key (<code>sbk_…</code>). The console keeps it for this tab only. Lost the
          admin key? <code>npm run keys:create-admin</code> on the service&apos;s host makes a new one.
        </p>
        <label htmlFor={inputId}>API token</label>
        <input id={inputId} type="password" autoComplete="current-password" autoFocus value={token} onChange={(e) => setToken(e.target.value)} required />
        <div className="dialog-actions">
          <button type="submit" className="primary" disabled={!token.trim()}>
            Sign in
          </button>
        </div>
      </form>
    </dialog>
  );
}
