import { Command } from '@nestjs/cqrs';
import type { CreateSessionRequest, SessionReplay } from '../../session-config';
import type { AgentDefaults } from './requested-session-config';

export interface SessionSummary {
  sessionId: string;
  status: string;
  model: string;
  protocolVersion?: number;
}

export class CreateSession extends Command<SessionSummary> {
  constructor(
    readonly request: CreateSessionRequest,
    readonly actor?: string,
    /** Set by the delegation engine: a run's session is its thread, `sub-agent-<run_id>`. */
    readonly sessionId?: string,
    /** A run's session skips its agent's delegation, policy and budget defaults: the delegation engine sets what a run gets. */
    readonly agentDefaults: AgentDefaults = 'apply',
    /** issue 26, set by the delegation engine only (never from a request): the run's session replays a recorded one. */
    readonly replay?: SessionReplay,
    /** issue 42, set by the delegation engine only: the session (the run's owner) whose worktree this run's starts from. */
    readonly workspaceParent?: string,
  ) {
    super();
  }
}
