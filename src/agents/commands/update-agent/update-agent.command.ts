import { Command } from '@nestjs/cqrs';
import type { AgentFields } from '../../agent-definition';
import type { AgentView } from '../../agent-library';

/** PUT semantics: the whole definition; `expectedVersion` (If-Match) guards against lost updates. */
export class UpdateAgent extends Command<AgentView> {
  constructor(
    readonly id: string,
    readonly fields: AgentFields,
    readonly expectedVersion?: number,
    readonly actor?: string,
  ) {
    super();
  }
}
