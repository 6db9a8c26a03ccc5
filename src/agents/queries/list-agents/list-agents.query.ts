import { Query } from '@nestjs/cqrs';
import type { AgentView } from '../../agent-library';

/** FR-7: the library, each agent with `composable` and its reasons; `composable: true` filters. */
export class ListAgents extends Query<{ agents: AgentView[] }> {
  constructor(readonly composable?: boolean) {
    super();
  }
}
