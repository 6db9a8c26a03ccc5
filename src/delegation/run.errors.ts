import { HttpStatus } from '@nestjs/common';
import { DomainError } from '../common';

/** Stable codes of the delegation tools (spec: sub-agent-delegation): invalid_arguments, unknown_agent,
 * unknown_run, invalid_state, policy_denied, budget_exceeded; the REST filter maps them to statuses. */
export class InvalidRunArgumentsError extends DomainError {
  static override readonly httpStatus = HttpStatus.BAD_REQUEST;
  readonly code = 'invalid_arguments';
}

export { UnknownAgentError } from '../agents';

export class UnknownRunError extends DomainError {
  static override readonly httpStatus = HttpStatus.NOT_FOUND;
  readonly code = 'unknown_run';

  constructor(runId: string) {
    super(`Run ${runId} does not exist`, { runId });
  }
}

export class RunStateError extends DomainError {
  readonly code = 'invalid_state';
}

export class PolicyDeniedError extends DomainError {
  static override readonly httpStatus = HttpStatus.FORBIDDEN;
  readonly code = 'policy_denied';
}

/** A completion from an earlier launch of a run that was resumed since: it must not overwrite the new launch. */
export class StaleRunCompletionError extends DomainError {
  readonly code = 'stale_completion';
}

/** A run asked for under a budget with nothing left (its own, when resumed, or an ancestor's): 409. */
export class BudgetExceededError extends DomainError {
  static override readonly httpStatus = HttpStatus.CONFLICT;
  readonly code = 'budget_exceeded';
}

/** issue 26: a run whose record cannot answer a replay (no calls, bodies not kept, answers cut), or a fork point that is not a finished call of its tree: 422. */
export class NotReplayableError extends DomainError {
  readonly code = 'not_replayable';
}
