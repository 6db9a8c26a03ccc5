import { useState } from 'react';
import type { ApiError } from '../api/client';
import { asApiError } from '../api/mutation';
import { ErrorNote } from './ErrorNote';

/** Someone the steer box can reach: the session's main agent, or a running CLI sub-agent of it. */
export interface SteerTargetChoice {
  /** Empty for the main agent. */
  subagentId: string;
  label: string;
}

/**
 * While an agent works, what a person says to it without stopping it: its next model request ends with
 * the message. `targets` lists who can take it now (the main agent first).
 */
export function SteerBox({
  targets,
  onSteer,
  idPrefix = 'steer',
  name = 'Steer',
}: {
  targets: readonly SteerTargetChoice[];
  onSteer: (message: string, subagentId: string | undefined) => Promise<void>;
  idPrefix?: string;
  /** The form's accessible name, when a page has more than one. */
  name?: string;
}) {
  const [message, setMessage] = useState('');
  const [target, setTarget] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const [sent, setSent] = useState<string | undefined>();
  // A sub-agent that ended is no longer offered: the choice falls back to the main agent.
  const chosen = targets.some((t) => t.subagentId === target) ? target : (targets[0]?.subagentId ?? '');
  const steer = async () => {
    const text = message.trim();
    if (!text || busy) return;
    setBusy(true);
    setError(undefined);
    setSent(undefined);
    try {
      await onSteer(text, chosen || undefined);
      setMessage('');
      setSent(`Sent to ${targets.find((t) => t.subagentId === chosen)?.label ?? 'the agent'}: its next model request carries it.`);
    } catch (e) {
      setError(asApiError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="steer-box"
      aria-label={name}
      onSubmit={(e) => {
        e.preventDefault();
        void steer();
      }}
    >
      <label htmlFor={`${idPrefix}-message`}>Steer the agent while it works</label>
      <div className="steer-row">
        {targets.length > 1 && (
          <select aria-label="Steer whom" value={chosen} onChange={(e) => setTarget(e.target.value)}>
            {targets.map((t) => (
              <option key={t.subagentId} value={t.subagentId}>
                {t.label}
              </option>
            ))}
          </select>
        )}
        <input
          id={`${idPrefix}-message`}
          value={message}
          placeholder="Say something to it without stopping it…"
          onChange={(e) => setMessage(e.target.value)}
        />
        <button type="submit" disabled={busy || !message.trim()}>
          {busy ? 'Steering…' : 'Steer'}
        </button>
      </div>
      {sent && (
        <p className="muted small" role="status">
          {sent}
        </p>
      )}
      <ErrorNote error={error} title="The agent was not steered" />
    </form>
  );
}
