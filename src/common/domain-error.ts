/**
 * Base of every error a caller can act on. `code` is stable and machine-readable; the one
 * exception filter (DomainErrorFilter) maps codes to HTTP statuses, so handlers never build responses.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;

  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFoundError extends DomainError {
  readonly code = 'not_found';
}

export class InvalidInputError extends DomainError {
  readonly code = 'invalid_input';
}

/** What a request wants stored is larger than Switchboard keeps. HTTP 413. */
export class PayloadTooLargeError extends DomainError {
  readonly code = 'payload_too_large';
}
