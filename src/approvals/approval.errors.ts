import { HttpStatus } from '@nestjs/common';
import { DomainError } from '../common';

export class ApprovalNotFoundError extends DomainError {
  readonly code = 'not_found';

  constructor(approvalId: string) {
    super(`Approval ${approvalId} does not exist; list them with GET /api/approvals`, { approvalId });
  }
}

/** A decision on a request that is no longer pending. HTTP 409, naming its state. */
export class ApprovalSettledError extends DomainError {
  static override readonly httpStatus = HttpStatus.CONFLICT;
  readonly code = 'approval_settled';

  constructor(approvalId: string, status: string) {
    super(`Approval ${approvalId} is already ${status}; only a pending approval can be decided`, { approvalId, status });
  }
}
