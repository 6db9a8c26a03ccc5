import { useId, useState } from 'react';
import { Icon } from './icons';

/** A list of names typed one by one (Enter or comma adds), with suggestions from a datalist. */
export function TagInput({
  label,
  values,
  onChange,
  suggestions = [],
  help,
  problem,
}: {
  label: string;
  values: readonly string[];
  onChange: (next: string[]) => void;
  suggestions?: readonly string[];
  help?: string;
  problem?: string;
}) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const add = () => {
    const names = draft
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n && !values.includes(n));
    if (names.length) onChange([...values, ...names]);
    setDraft('');
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {values.length > 0 && (
        <ul className="tags" aria-label={`${label}: chosen`}>
          {values.map((value) => (
            <li key={value} className="tag">
              {value}
              <button
                type="button"
                className="tag-remove"
                aria-label={`Remove ${value} from ${label}`}
                onClick={() => onChange(values.filter((v) => v !== value))}
              >
                <Icon name="close" size={14} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={id}
        list={suggestions.length ? `${id}-suggestions` : undefined}
        value={draft}
        placeholder="Type a name, Enter to add"
        aria-describedby={`${id}-help`}
        aria-invalid={problem ? true : undefined}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ',') {
            e.preventDefault();
            add();
          }
        }}
        onBlur={add}
      />
      {suggestions.length > 0 && (
        <datalist id={`${id}-suggestions`}>
          {suggestions
            .filter((s) => !values.includes(s))
            .map((s) => (
              <option key={s} value={s} />
            ))}
        </datalist>
      )}
      <p id={`${id}-help`} className={problem ? 'field-problem' : 'help'}>
        {problem ?? help}
      </p>
    </div>
  );
}
