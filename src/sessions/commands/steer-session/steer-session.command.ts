import { Command } from '@nestjs/cqrs';
import type { SteerTarget } from '../../session.events';

export interface AgentSteered {
  sessionId: string;
  target: SteerTarget;
  subagentId?: string;
  agentName: string;
  /** The steer is with the CLI: the agent's next model request carries it. */
  status: 'steered';
}

/**
 * A person says something to a running agent of the session without stopping it: the main agent
 * (the CLI's `session.send` in `immediate` mode) or one of its CLI sub-agents (`session.tasks.sendMessage`).
 * Its next model request ends with the message as a user message.
 */
export class SteerSession extends Command<AgentSteered> {
  constructor(
    readonly sessionId: string,
    readonly message: string,
    readonly actor: string,
    readonly target: { subagentId?: string; runId?: string } = {},
  ) {
    super();
  }
}
