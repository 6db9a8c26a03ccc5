import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { subAgentProblems, AgentLibrary } from '../../../agents';
import { EventStore } from '../../../event-store';
import { decideOnSession } from '../../session-command';
import { LiveSessionLookup } from '../../live-session-lookup';
import { SessionTeamInvalidError } from '../../session.errors';
import { ChangeSubAgents } from './change-sub-agents.command';

@CommandHandler(ChangeSubAgents)
export class ChangeSubAgentsHandler implements ICommandHandler<ChangeSubAgents> {
  constructor(
    private readonly store: EventStore,
    private readonly sessions: LiveSessionLookup,
    private readonly library: AgentLibrary,
  ) {}

  async execute({ sessionId, subAgents, actor }: ChangeSubAgents) {
    const session = await this.sessions.get(sessionId);
    // The same rule set as saving an agent; the session's own agent is never its sub-agent.
    const problems = subAgentProblems(session.config.agentId, subAgents, await this.library.lookup(subAgents));
    if (problems.length > 0) throw new SessionTeamInvalidError(sessionId, 'use', problems);
    await decideOnSession(this.store, session, { type: 'ChangeSubAgents', sessionId, subAgents }, actor);
    return { sessionId, subAgents };
  }
}
