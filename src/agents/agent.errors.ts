import { HttpStatus } from '@nestjs/common';
import { DomainError, missingEntityError } from '../common';
import type { SubAgentProblem } from './agent-eligibility';

export class AgentNotFoundError extends missingEntityError('not_found', 'Agent', 'agentId') {}

/** A request names an agent (in its body) that is not in the library: 422, the request is understood but refers to nothing. */
export class UnknownAgentError extends DomainError {
  readonly code = 'unknown_agent';

  constructor(agentId: string) {
    super(`Agent ${agentId} does not exist; list the agents with GET /api/agents`, { agentId });
  }
}

export class AgentAlreadyExistsError extends DomainError {
  static override readonly httpStatus = HttpStatus.CONFLICT;
  readonly code = 'agent_exists';
  constructor(agentId: string) {
    super(`Agent ${agentId} already exists; update it with PUT /api/agents/${agentId} or choose another id`, { agentId });
  }
}

/** FR-1/FR-6: the agent names sub-agents that are unknown or cannot be sub-agents. HTTP 422. */
export class SubAgentsRejectedError extends DomainError {
  readonly code = 'invalid_sub_agents';
  constructor(
    ownerLabel: string,
    readonly problems: SubAgentProblem[],
  ) {
    super(`${ownerLabel} cannot use ${problems.length === 1 ? 'this sub-agent' : 'these sub-agents'}: ${problems.map((p) => p.reason).join('; ')}`, {
      problems,
    });
  }
}

/** An import whose files do not parse or reference what cannot be used; nothing was written. HTTP 422. */
export class AgentImportRejectedError extends DomainError {
  readonly code = 'invalid_agent_files';
  constructor(readonly problems: Array<{ file: string; line?: number; message: string }>) {
    super(`Nothing was imported: ${problems.map((p) => `${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`).join('; ')}`, { problems });
  }
}

/** A hook webhook URL the outbound guard refuses (metadata, link-local, outside SWITCHBOARD_OUTBOUND_ALLOW). HTTP 422. */
export class AgentEndpointRefusedError extends DomainError {
  readonly code = 'endpoint_refused';
  constructor(readonly problems: Array<{ field: string; reason: string }>) {
    super(problems.map((p) => `${p.field}: ${p.reason}`).join('; '), { problems });
  }
}

/** issue 43: a remote agent that also sets what configures an agent running here. HTTP 422. */
export class InvalidRemoteAgentError extends DomainError {
  readonly code = 'invalid_remote_agent';
  constructor(agentId: string, problems: string[]) {
    super(`Agent ${agentId}: ${problems.join('; ')}`, { problems });
  }
}
