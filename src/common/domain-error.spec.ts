import { Logger } from '@nestjs/common';
import { CopilotCliConnectionLostError } from '../copilot-cli';
import { TooManyLiveSessionsError } from '../sessions';
import { DomainError, httpStatusOf, NotFoundError } from './domain-error';
import { graphqlErrorOf } from './graphql-error';

/** A context's error as a new context would write it: the status sits on the class. */
class TeapotError extends DomainError {
  static override readonly httpStatus = 418;
  readonly code = 'teapot';
}
class UndeclaredError extends DomainError {
  readonly code = 'something_refused';
}
/** A kernel code with a status of its own declared: the declaration wins. */
class GoneError extends DomainError {
  static override readonly httpStatus = 410;
  readonly code = 'not_found';
}
class MissingThingError extends DomainError {
  readonly code = 'not_found';
}

describe('the HTTP status of a domain error', () => {
  it('is the one its class declares', () => {
    expect(httpStatusOf(new TeapotError('short and stout'))).toBe(418);
    expect(httpStatusOf(new GoneError('gone'))).toBe(410);
    expect(httpStatusOf(new TooManyLiveSessionsError(3, 3))).toBe(429);
  });

  it('is inherited by a subclass of a declaring error', () => {
    expect(httpStatusOf(new CopilotCliConnectionLostError('lost'))).toBe(503);
  });

  it("is the shared kernel's for a generic code nobody declared a status for", () => {
    expect(httpStatusOf(new MissingThingError('no such thing'))).toBe(404);
    expect(httpStatusOf(new NotFoundError('no such thing'))).toBe(404);
  });

  it('is 422 when undeclared and not a kernel code (understood, but refused)', () => {
    expect(httpStatusOf(new UndeclaredError('no'))).toBe(422);
  });

  it("is GraphQL's extensions.statusCode too", () => {
    const logger = new Logger('test');
    expect(graphqlErrorOf(new TeapotError('short and stout'), httpStatusOf, logger).extensions).toMatchObject({ code: 'teapot', statusCode: 418 });
    expect(graphqlErrorOf(new UndeclaredError('no'), httpStatusOf, logger).extensions).toMatchObject({ code: 'something_refused', statusCode: 422 });
  });

  it('never shows in the fields an error carries (logs, stored payloads)', () => {
    expect(Object.keys(new TeapotError('short and stout'))).not.toContain('httpStatus');
  });
});
