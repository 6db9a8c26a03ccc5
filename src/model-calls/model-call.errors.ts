import { DomainError } from '../common';

export class ModelCallNotFoundError extends DomainError {
  readonly code = 'not_found';
  constructor(callId: string) {
    super(`Model call ${callId} does not exist`, { callId });
  }
}

/** Asked for the model calls of a run the runs read model does not know. */
export class RunOfCallsNotFoundError extends DomainError {
  readonly code = 'not_found';
  constructor(runId: string) {
    super(`Run ${runId} does not exist`, { runId });
  }
}
