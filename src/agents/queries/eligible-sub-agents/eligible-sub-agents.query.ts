import { Query } from '@nestjs/cqrs';
import type { AgentView } from '../../agent-library';

/** spec: GET /api/agents/eligible-sub-agents?exclude={agentId}: composable agents, the edited one left out. */
export class EligibleSubAgents extends Query<{ agents: AgentView[] }> {
  constructor(readonly exclude?: string) {
    super();
  }
}
