import type { DraftFormProps } from './draft-form';
import { Field } from '../../ui/Field';

/** Identity (name, icon, id on create, description, model) and the system message; a remote agent's model and prompt are its service's. */
export function AgentBasicsForm({ draft, set, fieldProblem, editing }: DraftFormProps & { editing: boolean }) {
  const remote = draft.remoteA2a.trim() !== '';
  return (
    <>
      <fieldset>
        <legend>Identity</legend>
        <div className="field-row">
          <Field label="Name" problem={fieldProblem('name')} help="Shown in the library and to the main agent.">
            {(props) => <input {...props} value={draft.name} onChange={(e) => set('name', e.target.value)} required maxLength={200} />}
          </Field>
          <Field label="Icon" problem={fieldProblem('icon')} help="An emoji." narrow>
            {(props) => <input {...props} value={draft.icon} onChange={(e) => set('icon', e.target.value)} maxLength={16} />}
          </Field>
        </div>
        {!editing && (
          <Field
            label="Id"
            problem={fieldProblem('id')}
            help="A slug (lowercase letters, digits, dashes). Left empty, it is made from the name. It cannot be changed later."
          >
            {(props) => <input {...props} value={draft.id} onChange={(e) => set('id', e.target.value)} pattern="[a-z0-9]+(-[a-z0-9]+)*" maxLength={64} />}
          </Field>
        )}
        <Field
          label="Description"
          problem={fieldProblem('description')}
          help="The main agent picks sub-agents by their description: say what this one is good at."
        >
          {(props) => <textarea {...props} rows={2} value={draft.description} onChange={(e) => set('description', e.target.value)} maxLength={4000} />}
        </Field>
        {!remote && (
          <Field label="Model" problem={fieldProblem('model')} help="Empty: the service's default model (COPILOT_MODEL).">
            {(props) => <input {...props} value={draft.model} onChange={(e) => set('model', e.target.value)} maxLength={200} />}
          </Field>
        )}
      </fieldset>
      {remote ? null : (
        <fieldset>
          <legend>Prompt</legend>
          <div className="radio-row" role="radiogroup" aria-label="System message mode">
            <label>
              <input type="radio" name="mode" value="append" checked={draft.mode === 'append'} onChange={() => set('mode', 'append')} /> Append to the
              CLI's system message
            </label>
            <label>
              <input type="radio" name="mode" value="replace" checked={draft.mode === 'replace'} onChange={() => set('mode', 'replace')} /> Replace it
            </label>
          </div>
          <Field label="System message" problem={fieldProblem('content')} help="What this agent is and how it works. Sub-agents need one.">
            {(props) => <textarea {...props} rows={8} className="mono" value={draft.content} onChange={(e) => set('content', e.target.value)} />}
          </Field>
        </fieldset>
      )}
    </>
  );
}
