import { HttpStatus } from '@nestjs/common';
import { DomainError } from '../common';

/** The CLI cannot be started or reached, or did not answer. HTTP 503. */
export class CopilotCliUnavailableError extends DomainError {
  static override readonly httpStatus = HttpStatus.SERVICE_UNAVAILABLE;
  readonly code = 'cli_unavailable';
}

/**
 * The connection went away while a request waited for its answer (the CLI died, the socket dropped):
 * whether the CLI acted on it is unknown, and the sessions on it are being interrupted. HTTP 503.
 */
export class CopilotCliConnectionLostError extends CopilotCliUnavailableError {}
