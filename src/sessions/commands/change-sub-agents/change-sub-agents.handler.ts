import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { subAgentProblems } from '../../../agents/agent-eligibility';
import { AgentLibrary } from '../../../agents/agent-library';
import { handleCommand } from '../../../event-store/decider';
import { EventStore } from '../../../event-store/event-store';
import { sessionStreamId } from '../../../event-store/stream-ids';
import { SESSION_COMMAND_RETRIES, sessionDecider } from '../../session.decider';
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
    const session = this.sessions.get(sessionId);
    // The same rule set as saving an agent; the session's own agent is never its sub-agent.
    const problems = subAgentProblems(session.config.agentId, subAgents, (id) => this.library.find(id));
    if (problems.length > 0) throw new SessionTeamInvalidError(sessionId, 'use', problems);
    const changed = await handleCommand(
      this.store,
      sessionDecider,
      sessionStreamId(sessionId),
      { type: 'ChangeSubAgents', sessionId, subAgents },
      { metadata: { actor, correlationId: sessionId }, retries: SESSION_COMMAND_RETRIES },
    );
    session.apply(changed.events);
    return { sessionId, subAgents };
  }
}
