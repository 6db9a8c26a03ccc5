import { HttpStatus } from '@nestjs/common';
import { DomainError } from '../common';

/**
 * The session (or the run's session) is live on another running instance, whose Copilot CLI holds it.
 * HTTP 409: the client sends the request to that instance's address (docs/postgresql.md, several instances).
 */
export class OwnedByOtherInstanceError extends DomainError {
  static override readonly httpStatus = HttpStatus.CONFLICT;
  readonly code = 'owned_by_other_instance';
  constructor(what: string, ownerInstance: string, address: string) {
    super(`${what} is live on instance ${ownerInstance} at ${address}; send the request there`, { ownerInstance, address });
  }
}
