import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { request } from '../api/client';
import { useMay, useMe } from '../api/me';
import type { ApiKeysQuery as ApiKeysResult } from '../gql/graphql';
import { ErrorNote } from '../ui/ErrorNote';
import { Icon } from '../ui/icons';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { apiKeysKey, useCreateApiKey, useRevokeApiKey } from './mutations';
import { ApiKeysQuery } from './operations';
import { ColumnHeads } from '../ui/ColumnHeads';

type ApiKey = ApiKeysResult['apiKeys'][number];

const ROLES = [
  { value: 'viewer', text: 'viewer (reads)' },
  { value: 'operator', text: 'operator (sessions and runs)' },
  { value: 'approver', text: 'approver (approvals)' },
  { value: 'admin', text: 'admin (everything)' },
] as const;

/** A moment in the reader's words, or a dash for never. */
function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/**
 * Who created or revoked a key, as recorded: a principal's id (a person's is `<issuer>#<subject>`:
 * the subject reads better, the whole id is in the title).
 */
function Who({ id }: { id: string }) {
  const at = id.lastIndexOf('#');
  return <span title={id}>{at >= 0 ? id.slice(at + 1) : id}</span>;
}

/**
 * Named API keys for programs (an admin's page): create one with a role and an optional expiry (the key
 * is shown this once), list them (prefix only) and revoke one after a confirmation.
 */
export function KeysPage() {
  const mayAdminister = useMay('administer');
  const keys = useQuery({ queryKey: apiKeysKey, queryFn: () => request(ApiKeysQuery), enabled: mayAdminister });
  const [revoking, setRevoking] = useState<ApiKey | undefined>();
  // When the page opened: an expiry passed since shows at the next visit (the service refuses the key at once anyway).
  const [openedAt] = useState(() => Date.now());
  const revoke = useRevokeApiKey();

  if (!mayAdminister) {
    return (
      <section className="page" aria-labelledby="keys-title">
        <h1 id="keys-title">API keys</h1>
        <p>Only an admin manages API keys.</p>
      </section>
    );
  }

  return (
    <section className="page" aria-labelledby="keys-title">
      <div className="page-head">
        <div>
          <h1 id="keys-title">API keys</h1>
          <p className="muted">Keys for programs, each with a name and a role. The service keeps only a hash: a key is shown once, when it is made.</p>
        </div>
      </div>
      <CreateKey />
      <h2>Keys</h2>
      <ErrorNote error={keys.error} title="The keys could not be read" />
      <ErrorNote error={revoke.error} title="Revoke failed" />
      {keys.data && keys.data.apiKeys.length === 0 && <p className="muted">No keys yet.</p>}
      {keys.data && keys.data.apiKeys.length > 0 && (
        <div className="table-scroll">
          <table className="data-table keys-table">
            <caption className="visually-hidden">API keys</caption>
            <ColumnHeads names={['Name', 'Role', 'Prefix', 'Created', 'Last used', 'Expires', 'State']}>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </ColumnHeads>
            <tbody>
              {keys.data.apiKeys.map((key) => (
                <tr key={key.id}>
                  <th scope="row">{key.name}</th>
                  <td>
                    <span className="badge role-badge">{key.role}</span>
                  </td>
                  <td className="mono">{key.prefix}…</td>
                  <td>
                    {when(key.createdAt)}{' '}
                    <span className="muted">
                      by <Who id={key.createdBy} />
                    </span>
                  </td>
                  <td>{when(key.lastUsedAt)}</td>
                  <td>{key.expiresAt ? when(key.expiresAt) : 'never'}</td>
                  <td>
                    {key.revokedAt ? (
                      <span className="badge status-over">
                        revoked {when(key.revokedAt)}
                        {key.revokedBy && (
                          <>
                            {' '}
                            by <Who id={key.revokedBy} />
                          </>
                        )}
                      </span>
                    ) : key.expiresAt && Date.parse(key.expiresAt) <= openedAt ? (
                      <span className="badge status-attention">expired</span>
                    ) : (
                      <span className="badge status-live">active</span>
                    )}
                  </td>
                  <td>
                    {!key.revokedAt && (
                      <button
                        type="button"
                        className="danger"
                        disabled={revoke.isPending}
                        onClick={() => setRevoking(key)}
                        aria-label={`Revoke ${key.name}`}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoking && (
        <ConfirmRevoke
          apiKey={revoking}
          onCancel={() => setRevoking(undefined)}
          onConfirm={() => {
            revoke.mutate({ id: revoking.id });
            setRevoking(undefined);
          }}
        />
      )}
    </section>
  );
}

/**
 * issue 39: on the open local API (no token, no sign-in, no key yet: the caller is the local admin), the
 * first key closes the API. It must be an admin key (the service refuses another role), and the console
 * signs in with it as soon as it is made, so its maker keeps the console.
 */
function CreateKey() {
  const id = useId();
  const firstKey = useMe().data?.me.kind === 'local';
  const [name, setName] = useState('');
  const [chosenRole, setRole] = useState<string>('viewer');
  const role = firstKey ? 'admin' : chosenRole;
  const [signedInWithIt, setSignedInWithIt] = useState(false);
  const [expiresOn, setExpiresOn] = useState('');
  const create = useCreateApiKey({ signInWithIt: firstKey });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    // A date picked is the end of that day, local time.
    const input = { name: name.trim(), role, ...(expiresOn ? { expiresAt: new Date(`${expiresOn}T23:59:59`).toISOString() } : {}) };
    create.mutate(
      { input },
      {
        onSuccess: () => {
          if (firstKey) setSignedInWithIt(true);
          setName('');
          setExpiresOn('');
        },
      },
    );
  };

  return (
    <>
      {firstKey && (
        <div className="first-key-note" role="note" aria-labelledby={`${id}-first`} id={`${id}-first-note`}>
          <p id={`${id}-first`}>
            <strong>This service has no token and no key yet: its API is open to anyone on this machine.</strong>
          </p>
          <p>
            Creating the first key closes the open local API: from then on every call needs a key. This first key will be an admin key, and this console
            will sign in with it (for this tab). Copy it when it is shown, to sign in again later.
          </p>
        </div>
      )}
      <form className="key-form" aria-label="New API key" onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} placeholder="ci-pipeline" required />
        </div>
        <div className="field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select
            id={`${id}-role`}
            value={role}
            onChange={(e) => setRole(e.target.value)}
            disabled={firstKey}
            aria-describedby={firstKey ? `${id}-first-note` : undefined}
          >
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.text}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-expires`}>Expires (optional)</label>
          <input id={`${id}-expires`} type="date" value={expiresOn} onChange={(e) => setExpiresOn(e.target.value)} />
        </div>
        <div className="key-form-submit">
          <button type="submit" className="primary" disabled={create.isPending || !name.trim()}>
            <Icon name="key" />
            {create.isPending ? 'Creating…' : firstKey ? 'Create the first key and sign in with it' : 'Create key'}
          </button>
        </div>
      </form>
      <ErrorNote error={create.error} title="The key was not created" />
      {create.data && (
        <NewKey
          name={create.data.createApiKey.apiKey.name}
          secret={create.data.createApiKey.key}
          signedInWithIt={signedInWithIt}
          onDone={() => {
            setSignedInWithIt(false);
            create.reset();
          }}
        />
      )}
    </>
  );
}

/** The key itself, this once: copy it now. */
function NewKey({ name, secret, signedInWithIt, onDone }: { name: string; secret: string; signedInWithIt: boolean; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="new-key" role="region" aria-label="New key">
      <p>
        <strong>Key “{name}” created.</strong> Copy it now: <strong>you will not see it again</strong> (the service keeps only its hash).
      </p>
      {signedInWithIt && (
        <p>The open local API is closed now. This console signed in with this admin key for this tab; paste the key when the console asks for it again.</p>
      )}
      <div className="new-key-value">
        <code data-testid="new-key">{secret}</code>
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard
              .writeText(secret)
              .then(() => setCopied(true))
              .catch(() => setCopied(false));
          }}
        >
          <Icon name="copy" />
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="ghost" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

function ConfirmRevoke({ apiKey, onCancel, onConfirm }: { apiKey: ApiKey; onCancel: () => void; onConfirm: () => void }) {
  return (
    <ConfirmDialog
      titleId="confirm-revoke-title"
      title={`Revoke the key “${apiKey.name}”?`}
      confirmLabel="Revoke"
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p>
        Every program using <code>{apiKey.prefix}…</code> is refused from its next request on, on every instance. A revoked key cannot be used again.
      </p>
    </ConfirmDialog>
  );
}
