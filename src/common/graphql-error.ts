import { HttpException, type Logger } from '@nestjs/common';
import { GraphQLError } from 'graphql';
import { DomainError } from './domain-error';

/**
 * The GraphQL face of the error contract: the same stable `code` as REST in `extensions.code`, plus
 * `statusCode` (what REST would answer) and `details`. Unexpected errors never leak their text.
 */
export function graphqlErrorOf(error: unknown, statusOf: (error: DomainError) => number, logger: Logger): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (error instanceof DomainError) {
    return new GraphQLError(error.message, {
      extensions: { code: error.code, statusCode: statusOf(error), ...(error.details ? { details: error.details } : {}) },
    });
  }
  if (error instanceof HttpException) {
    const statusCode = error.getStatus();
    const body = error.getResponse();
    const payload = typeof body === 'string' ? { message: body } : (body as Record<string, unknown>);
    const { message, code, statusCode: _s, error: _e, details: given, ...rest } = payload;
    const details = given ?? (Object.keys(rest).length ? rest : undefined);
    return new GraphQLError(typeof message === 'string' ? message : error.message, {
      extensions: { code: typeof code === 'string' ? code : codeOfStatus(statusCode), statusCode, ...(details ? { details } : {}) },
    });
  }
  logger.error({ err: error }, 'unhandled error');
  return new GraphQLError('Internal error; see the service log', { extensions: { code: 'internal_error', statusCode: 500 } });
}

export function codeOfStatus(status: number): string {
  if (status === 400) return 'invalid_input';
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  return 'http_error';
}
