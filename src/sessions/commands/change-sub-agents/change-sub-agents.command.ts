import { Command } from '@nestjs/cqrs';

/** FR-3: toggling a live session's sub-agents is stored at once; the CLI gets them at the next resume. */
export class ChangeSubAgents extends Command<{ sessionId: string; subAgents: string[] }> {
  constructor(
    readonly sessionId: string,
    readonly subAgents: string[],
    readonly actor?: string,
  ) {
    super();
  }
}
