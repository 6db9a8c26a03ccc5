import { TagInput } from '../../ui/TagInput';
import type { DraftFormProps } from './draft-form';

/** The three tool lists, in the form's order; the built-in ones offer the service's known tools. */
const TOOL_LISTS: ReadonlyArray<{ field: 'builtin' | 'custom' | 'excludedBuiltin'; label: string; help: string; builtIn: boolean }> = [
  {
    field: 'builtin',
    label: 'Built-in tools allowed',
    help: 'Empty: every built-in tool. Listing tools limits the agent to them (sub-agents: the only way to limit).',
    builtIn: true,
  },
  {
    field: 'custom',
    label: 'Custom tools',
    help: 'Tools a session provides (webhooks). An agent with custom tools cannot be a sub-agent.',
    builtIn: false,
  },
  {
    field: 'excludedBuiltin',
    label: 'Excluded built-in tools',
    help: 'Built-in tools taken away. An agent that excludes tools cannot be a sub-agent: use the allowlist instead.',
    builtIn: true,
  },
];

/** The built-in allowlist, custom tools and excluded built-ins, with the service's known tools as suggestions. */
export function ToolsEditor({ draft, set, fieldProblem, knownBuiltinTools }: DraftFormProps & { knownBuiltinTools: readonly string[] }) {
  return (
    <fieldset>
      <legend>Tools</legend>
      {TOOL_LISTS.map(({ field, label, help, builtIn }) => (
        <TagInput
          key={field}
          label={label}
          values={draft[field]}
          onChange={(v) => set(field, v)}
          suggestions={builtIn ? knownBuiltinTools : undefined}
          help={help}
          problem={fieldProblem(field)}
        />
      ))}
    </fieldset>
  );
}
