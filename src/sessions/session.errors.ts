import { HttpStatus } from '@nestjs/common';
import { DomainError, missingEntityError } from '../common';
import type { SessionStatus } from './session.events';

export class SessionNotFoundError extends missingEntityError('not_found', 'Session', 'sessionId') {}

/** The session never launched a CLI sub-agent by that id. HTTP 404. */
export class SubagentNotFoundError extends DomainError {
  readonly code = 'not_found';
  constructor(sessionId: string, subagentId: string) {
    super(
      `Session ${sessionId} has no sub-agent ${subagentId}; subagentId is a launch's childSessionId (GET /api/sessions/${sessionId}: subAgentLaunches)`,
      {
        sessionId,
        subagentId,
      },
    );
  }
}

/** Steering needs the CLI's protocol 3 (session.send mode immediate, session.tasks.sendMessage). HTTP 422. */
export class SteerNeedsProtocol3Error extends DomainError {
  readonly code = 'unsupported_by_cli';
  constructor(sessionId: string, protocolVersion: number | undefined) {
    super(
      `Session ${sessionId} runs on a Copilot CLI speaking protocol ${protocolVersion ?? 'unknown'}; steering a running agent needs protocol 3 (Copilot CLI 1.0.x): upgrade the CLI`,
      { sessionId, protocolVersion },
    );
  }
}

/** The session exists but cannot do that now (destroyed, interrupted, busy...). HTTP 409. */
export class SessionStateError extends DomainError {
  readonly code = 'invalid_state';
}

/** The session exists but is over (destroyed, failed to start): it takes no more commands. HTTP 409. */
export class SessionNotLiveError extends DomainError {
  readonly code = 'invalid_state';
  constructor(sessionId: string, status: SessionStatus, reason?: string) {
    const over = status === 'destroyed' || status === 'failed';
    const why = reason ? ` (${reason.length > 200 ? `${reason.slice(0, 200)}…` : reason})` : '';
    super(`Session ${sessionId} is ${status}${why}; ${over ? 'create a new session' : 'try again once it has started'}`, {
      sessionId,
      status,
      ...(reason ? { reason } : {}),
    });
  }
}

/** No model provider and no GitHub token: the CLI could not answer any turn. HTTP 503. */
export class ProviderNotConfiguredError extends DomainError {
  static override readonly httpStatus = HttpStatus.SERVICE_UNAVAILABLE;
  readonly code = 'provider_not_configured';
  constructor() {
    super(
      'No model provider is configured: set COPILOT_PROVIDER_BASE_URL (with COPILOT_PROVIDER_API_KEY and, if not OpenAI-compatible, COPILOT_PROVIDER_TYPE), or set COPILOT_GITHUB_TOKEN',
    );
  }
}

/** SWITCHBOARD_MAX_LIVE_SESSIONS reached: a create or resume would be one live session too many. HTTP 429. */
export class TooManyLiveSessionsError extends DomainError {
  static override readonly httpStatus = HttpStatus.TOO_MANY_REQUESTS;
  readonly code = 'too_many_live_sessions';
  constructor(max: number, live: number) {
    super(
      `Too many live sessions: ${live} of SWITCHBOARD_MAX_LIVE_SESSIONS=${max} are live; destroy one (DELETE /api/sessions/<id>) or raise SWITCHBOARD_MAX_LIVE_SESSIONS`,
      { max, live },
    );
  }
}

/** The Copilot CLI refused or failed a request. HTTP 502. */
export class CliRequestFailedError extends DomainError {
  static override readonly httpStatus = HttpStatus.BAD_GATEWAY;
  readonly code = 'cli_error';
}

/** FR-5: the session's team cannot start as it is now; nothing was sent to the CLI. HTTP 422. */
export class SessionTeamInvalidError extends DomainError {
  readonly code = 'invalid_sub_agents';
  constructor(
    sessionId: string,
    action: 'start' | 'resume' | 'use',
    readonly problems: Array<{ id: string; reason: string }>,
  ) {
    super(`Session ${sessionId} cannot ${action} with its agents: ${problems.map((p) => p.reason).join('; ')}`, { sessionId, problems });
  }
}

/**
 * An inline MCP server that runs a command, or a webhook / remote MCP URL the outbound guard
 * refuses. Each problem names its request field. HTTP 422; nothing was recorded or sent to the CLI.
 */
export class SessionEndpointRefusedError extends DomainError {
  readonly code = 'endpoint_refused';
  constructor(readonly problems: Array<{ field: string; reason: string }>) {
    super(problems.map((p) => `${p.field}: ${p.reason}`).join('; '), { problems });
  }
}
