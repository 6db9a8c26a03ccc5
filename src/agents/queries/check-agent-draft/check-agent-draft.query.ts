import { Query } from '@nestjs/cqrs';
import type { AgentFields } from '../../agent-definition';
import type { AgentView } from '../../agent-library';

export type AgentDraftCheck = Pick<AgentView, 'composable' | 'composable_reasons' | 'sub_agent_problems'>;

/**
 * FR-1/FR-6 for an editor: whether a draft could be a sub-agent and what is wrong with the sub-agents it
 * selects, by the library's one rule set, before it is saved. `id` is the agent being edited (unset: new).
 */
export class CheckAgentDraft extends Query<AgentDraftCheck> {
  constructor(
    readonly id: string | undefined,
    readonly fields: AgentFields,
  ) {
    super();
  }
}
