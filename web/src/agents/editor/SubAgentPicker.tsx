import { ChoiceList, type Choice } from '../../ui/ChoiceList';
import type { DraftFormProps } from './draft-form';

/** The sub-agent selector: eligible agents, and selected ones that cannot be used, flagged with why. */
export function SubAgentPicker({
  draft,
  set,
  choices,
  blockedNoteId,
}: Omit<DraftFormProps, 'fieldProblem'> & { choices: Choice[]; blockedNoteId?: string }) {
  return (
    <ChoiceList
      legend="Sub-agents"
      choices={choices}
      selected={draft.subAgents}
      onChange={(v) => set('subAgents', v)}
      describedBy={blockedNoteId}
      empty="No agent can be a sub-agent yet: a sub-agent needs a prompt and a description, and no custom tools, excluded tools or sub-agents of its own."
    />
  );
}
