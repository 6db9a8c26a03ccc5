import { useId } from 'react';
import type { HookDraft } from '../agent-draft';
import { Icon } from '../../ui/icons';
import { Options } from '../../ui/Options';

/**
 * The agent's hook webhooks (docs/hooks.md): one row per handler, for the sessions and runs it is the
 * main agent of. Failure '' is the service's default: closed for preToolUse, open for the others.
 */
export function HooksField({
  hooks,
  types,
  onChange,
  problem,
}: {
  hooks: HookDraft[];
  /** The service's hook types (`hookTypes`); a loaded hook's type is always offered. */
  types: readonly string[];
  onChange: (next: HookDraft[]) => void;
  problem?: string;
}) {
  const id = useId();
  const change = (i: number, patch: Partial<HookDraft>) => onChange(hooks.map((h, j) => (j === i ? { ...h, ...patch } : h)));
  return (
    <fieldset className="hooks-field" aria-describedby={`${id}-note`}>
      <legend>Hooks</legend>
      {hooks.length === 0 && <p className="muted">No hooks: tool calls go through the session&apos;s policy alone.</p>}
      <ul className="hook-rows">
        {hooks.map((hook, i) => (
          <li key={i} className="hook-row" aria-label={`Hook ${i + 1}`}>
            <label>
              <span className="visually-hidden">Hook {i + 1} type</span>
              <select value={hook.type} onChange={(e) => change(i, { type: e.target.value })}>
                <Options values={[...new Set([...types, hook.type])]} />
              </select>
            </label>
            <label className="hook-url">
              <span className="visually-hidden">Hook {i + 1} URL</span>
              <input
                type="url"
                value={hook.url}
                placeholder="https://hooks.example.com/pre-tool-use"
                aria-invalid={problem ? true : undefined}
                onChange={(e) => change(i, { url: e.target.value })}
              />
            </label>
            <label>
              <span className="visually-hidden">Hook {i + 1} on failure</span>
              <select value={hook.failure} onChange={(e) => change(i, { failure: e.target.value as HookDraft['failure'] })}>
                <option value="">default ({hook.type === 'preToolUse' ? 'closed' : 'open'})</option>
                <option value="closed">closed: stop the call</option>
                <option value="open">open: let it through</option>
              </select>
            </label>
            <button type="button" className="ghost" aria-label={`Remove hook ${i + 1}`} onClick={() => onChange(hooks.filter((_, j) => j !== i))}>
              <Icon name="remove" />
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="ghost" onClick={() => onChange([...hooks, { type: 'preToolUse', url: '', failure: '' }])}>
        + Add hook
      </button>
      <p id={`${id}-note`} className={problem ? 'field-problem' : 'help'}>
        {problem ??
          'Webhooks the CLI’s hooks are sent to, signed like tool webhooks; a preToolUse hook can deny a call or change its arguments. On failure: whether a webhook that fails or does not answer in time lets the call through.'}
      </p>
    </fieldset>
  );
}
