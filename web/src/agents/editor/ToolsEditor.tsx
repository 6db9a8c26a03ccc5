import { TagInput } from '../../ui/TagInput';
import type { DraftFormProps } from './draft-form';

/** The built-in allowlist, custom tools and excluded built-ins, with the service's known tools as suggestions. */
export function ToolsEditor({ draft, set, fieldProblem, knownBuiltinTools }: DraftFormProps & { knownBuiltinTools: readonly string[] }) {
  return (
    <fieldset>
      <legend>Tools</legend>
      <TagInput
        label="Built-in tools allowed"
        values={draft.builtin}
        onChange={(v) => set('builtin', v)}
        suggestions={knownBuiltinTools}
        help="Empty: every built-in tool. Listing tools limits the agent to them (sub-agents: the only way to limit)."
        problem={fieldProblem('builtin')}
      />
      <TagInput
        label="Custom tools"
        values={draft.custom}
        onChange={(v) => set('custom', v)}
        help="Tools a session provides (webhooks). An agent with custom tools cannot be a sub-agent."
        problem={fieldProblem('custom')}
      />
      <TagInput
        label="Excluded built-in tools"
        values={draft.excludedBuiltin}
        onChange={(v) => set('excludedBuiltin', v)}
        suggestions={knownBuiltinTools}
        help="Built-in tools taken away. An agent that excludes tools cannot be a sub-agent: use the allowlist instead."
        problem={fieldProblem('excludedBuiltin')}
      />
    </fieldset>
  );
}
