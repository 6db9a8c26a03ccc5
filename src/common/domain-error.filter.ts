import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { GraphQLError } from 'graphql';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnreachableOf } from './database-unreachable.error';
import { DomainError, httpStatusOf } from './domain-error';
import { codeOfStatus, graphqlErrorOf } from './graphql-error';
import { refusedBodyOf } from './request-body';
import { textOf } from './text-of';
import { ThrottledWarning } from './throttled-warning';

/** Each error declares its status where it is defined (see DomainError); kept exported here for its callers. */

/**
 * The one place domain errors become HTTP responses: `{ statusCode, code, message, details? }`; in a
 * GraphQL resolver, a GraphQLError with the same code in `extensions.code`.
 */
@Catch()
export class DomainErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrors');
  /** During an outage every request fails the same way: 20 lines a minute, the rest summed up. */
  private readonly unreachable = new ThrottledWarning(this.logger, 'more requests answered 503 database_unavailable, not logged one by one');

  catch(thrown: unknown, host: ArgumentsHost): void | GraphQLError {
    // A lost database connection is temporary, whichever handler met it: 503, not an internal error.
    const unreachable = thrown instanceof DomainError || thrown instanceof HttpException ? undefined : databaseUnreachableOf(thrown);
    if (unreachable) this.unreachable.warn({ err: thrown }, 'database unavailable; answered 503');
    const error = unreachable ?? thrown;
    if (host.getType<string>() === 'graphql') return graphqlErrorOf(error, httpStatusOf, this.logger);
    const response = host.switchToHttp().getResponse<Response>();
    if (error instanceof DomainError) {
      const statusCode = httpStatusOf(error);
      if (error.code === 'database_unavailable') response.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      response.status(statusCode).json({ statusCode, code: error.code, message: error.message, details: error.details });
      return;
    }
    if (error instanceof HttpException) {
      const statusCode = error.getStatus();
      const body = error.getResponse();
      const payload = typeof body === 'string' ? { message: body } : (body as Record<string, unknown>);
      // One error shape for every answer: Nest's own exceptions carry `error` (the status text) and
      // an array message for some pipes; neither belongs in `{ statusCode, code, message, details? }`.
      const message = Array.isArray(payload.message) ? payload.message.join('; ') : textOf(payload.message, error.message);
      response.status(statusCode).json({ statusCode, code: payload.code ?? codeOfStatus(statusCode), message, details: payload.details });
      return;
    }
    const refused = refusedBodyOf(error);
    if (refused) {
      // Refused before auth, often by scanners: a warning with the reason, never a stack trace.
      this.logger.warn({ statusCode: refused.statusCode, code: refused.code, reason: (error as Error).message }, 'request body refused');
      response.status(refused.statusCode).json(refused);
      return;
    }
    this.logger.error({ err: error }, 'unhandled error');
    response.status(HttpStatus.INTERNAL_SERVER_ERROR).json({ statusCode: 500, code: 'internal_error', message: 'Internal error; see the service log' });
  }
}
