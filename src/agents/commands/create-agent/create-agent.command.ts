import { Command } from '@nestjs/cqrs';
import type { AgentInput } from '../../agent-definition';
import type { AgentView } from '../../agent-library';

export class CreateAgent extends Command<AgentView> {
  constructor(
    readonly input: AgentInput,
    readonly actor?: string,
  ) {
    super();
  }
}
