import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AgentLibrary } from '../../agent-library';
import { CheckAgentDraft } from './check-agent-draft.query';

@QueryHandler(CheckAgentDraft)
export class CheckAgentDraftHandler implements IQueryHandler<CheckAgentDraft> {
  constructor(private readonly library: AgentLibrary) {}

  async execute({ id, fields }: CheckAgentDraft) {
    return this.library.checkDraft(id, fields);
  }
}
