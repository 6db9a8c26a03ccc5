import { HttpStatus } from '@nestjs/common';
import { DomainError } from '../common';
import type { ExpectedVersion } from './event-store.types';

/** Optimistic concurrency: the stream moved on since the caller read it. Maps to HTTP 409. */
export class ExpectedVersionConflictError extends DomainError {
  static override readonly httpStatus = HttpStatus.CONFLICT;
  readonly code = 'expected_version_conflict';

  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number,
  ) {
    super(`Stream ${streamId} is at version ${actual}, expected ${String(expected)}; read it again and retry`, { streamId, expected, actual });
  }
}

export class InvalidAppendError extends DomainError {
  static override readonly httpStatus = HttpStatus.UNPROCESSABLE_ENTITY;
  readonly code = 'invalid_append';
}

/** The batch transaction could not commit (disk full, I/O error...): nothing of it was stored. */
export class AppendFailedError extends DomainError {
  static override readonly httpStatus = HttpStatus.SERVICE_UNAVAILABLE;
  readonly code = 'append_failed';
}
