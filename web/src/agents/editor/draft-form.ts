import type { AgentDraft } from '../agent-draft';

/** What each part of the editor's form is given: the draft, how to change one field, a field's problem. */
export interface DraftFormProps {
  draft: AgentDraft;
  set: <K extends keyof AgentDraft>(key: K, value: AgentDraft[K]) => void;
  fieldProblem: (field: string) => string | undefined;
}
