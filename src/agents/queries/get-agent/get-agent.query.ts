import { Query } from '@nestjs/cqrs';
import type { AgentView } from '../../agent-library';

export class GetAgent extends Query<AgentView> {
  constructor(readonly id: string) {
    super();
  }
}
