import { HttpStatus } from '@nestjs/common';

/**
 * Base of every error a caller can act on. `code` is stable and machine-readable; the one
 * exception filter (DomainErrorFilter) turns it into an HTTP answer, so handlers never build responses.
 * A context's error declares the HTTP status it answers where it is defined (`static readonly
 * httpStatus`); static, so it never shows in the error's own fields (logs, details, stored payloads).
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  /** Undeclared: the shared kernel's status for its code (KERNEL_STATUS_BY_CODE), else 422. */
  static readonly httpStatus?: number;

  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The generic codes every context may use, with the status they always answer. */
const KERNEL_STATUS_BY_CODE: Readonly<Record<string, number>> = {
  not_found: HttpStatus.NOT_FOUND,
  invalid_input: HttpStatus.BAD_REQUEST,
  invalid_state: HttpStatus.CONFLICT,
  payload_too_large: HttpStatus.PAYLOAD_TOO_LARGE,
  unsupported_media_type: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
};

/** What REST answers for a domain error (and GraphQL puts in `extensions.statusCode`): 422, the request was understood but refused, unless declared. */
export function httpStatusOf(error: DomainError): number {
  const declared = (error.constructor as { httpStatus?: number }).httpStatus;
  return declared ?? KERNEL_STATUS_BY_CODE[error.code] ?? HttpStatus.UNPROCESSABLE_ENTITY;
}

export class NotFoundError extends DomainError {
  readonly code = 'not_found';
}

export class InvalidInputError extends DomainError {
  readonly code = 'invalid_input';
}

/** What a request wants stored is larger than Switchboard keeps. HTTP 413. */
export class PayloadTooLargeError extends DomainError {
  static override readonly httpStatus = HttpStatus.PAYLOAD_TOO_LARGE;
  readonly code = 'payload_too_large';
}
