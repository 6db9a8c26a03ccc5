import { DomainError } from '../common';
import type { PauseTarget } from '../event-store';

const what = (target: PauseTarget, id: string) => `${target === 'run' ? 'Run' : 'Session'} ${id}`;

/** A pause or unpause the target's state refuses: not running, already paused, not paused. HTTP 409, naming the state. */
export class PauseStateError extends DomainError {
  readonly code = 'invalid_state';

  constructor(message: string, details: Record<string, unknown>) {
    super(message, details);
  }

  static notRunning(target: PauseTarget, id: string, status: string): PauseStateError {
    return new PauseStateError(`${what(target, id)} is ${status}; only a running ${target} can be paused`, { target, id, status });
  }

  static alreadyPaused(target: PauseTarget, id: string, since: string, by: string): PauseStateError {
    return new PauseStateError(`${what(target, id)} is already paused (since ${since}, by ${by}); unpause it first`, { target, id, since, by });
  }

  static notPaused(target: PauseTarget, id: string): PauseStateError {
    return new PauseStateError(`${what(target, id)} is not paused; nothing to unpause`, { target, id });
  }
}

export class PauseTargetNotFoundError extends DomainError {
  readonly code = 'not_found';

  constructor(target: PauseTarget, id: string) {
    super(`${what(target, id)} does not exist; list them with GET /api/${target}s`, { target, id });
  }
}
