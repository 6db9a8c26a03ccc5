import { useId } from 'react';
import { Icon } from './icons';

export interface Choice {
  value: string;
  label: string;
  hint?: string;
  /** Why it cannot be picked: shown, and the box disabled unless it is already picked. */
  disabledReason?: string;
  /** A picked value that is now a problem: flagged red with the reason. */
  problem?: string;
}

/**
 * A labelled group of checkboxes with All | None and a count: the one pattern for built-in tools, MCP
 * servers and sub-agents.
 */
export function ChoiceList({
  legend,
  choices,
  selected,
  onChange,
  empty,
  describedBy,
  compact = false,
  readOnly = false,
}: {
  legend: string;
  choices: Choice[];
  selected: readonly string[];
  onChange: (next: string[]) => void;
  empty: React.ReactNode;
  describedBy?: string;
  /** Short labels in columns (built-in tool names): a long list stays short. */
  compact?: boolean;
  /** Shown, not changed (a role that may not change it): the boxes disabled, no All | None. */
  readOnly?: boolean;
}) {
  const id = useId();
  const pickable = choices.filter((c) => !c.disabledReason);
  const chosen = new Set(selected);
  const set = (value: string, on: boolean) => onChange(on ? [...selected, value] : selected.filter((v) => v !== value));
  return (
    <fieldset className={compact ? 'choice-list compact' : 'choice-list'} aria-describedby={describedBy} disabled={readOnly}>
      <legend>
        {legend} <span className="count">({selected.length} selected)</span>
      </legend>
      {choices.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <>
          {!readOnly && (
            <div className="choice-actions" role="group" aria-label={`${legend}: select`}>
              <button
                type="button"
                className="link-button"
                onClick={() => onChange([...new Set([...selected.filter((v) => !pickable.some((c) => c.value === v)), ...pickable.map((c) => c.value)])])}
              >
                All
              </button>
              <span aria-hidden="true">|</span>
              <button type="button" className="link-button" onClick={() => onChange([])}>
                None
              </button>
            </div>
          )}
          <ul className="choices">
            {choices.map((choice) => {
              const inputId = `${id}-${choice.value}`;
              const noteId = `${inputId}-note`;
              const picked = chosen.has(choice.value);
              const note = choice.problem ?? choice.disabledReason;
              return (
                <li key={choice.value} className={choice.problem ? 'choice problem' : choice.disabledReason ? 'choice disabled' : 'choice'}>
                  <input
                    id={inputId}
                    type="checkbox"
                    checked={picked}
                    disabled={!!choice.disabledReason && !picked}
                    aria-invalid={choice.problem ? true : undefined}
                    aria-describedby={note ? noteId : undefined}
                    onChange={(e) => set(choice.value, e.target.checked)}
                  />
                  <label htmlFor={inputId}>
                    {choice.label}
                    {choice.hint && <span className="muted"> {choice.hint}</span>}
                  </label>
                  {note && (
                    <span id={noteId} className={choice.problem ? 'choice-note problem-text' : 'choice-note muted'}>
                      {choice.problem ? (
                        <>
                          <Icon name="warning" /> {choice.problem}
                        </>
                      ) : (
                        choice.disabledReason
                      )}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </fieldset>
  );
}
