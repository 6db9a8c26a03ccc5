import { ArgumentsHost, BadRequestException, Logger, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { GraphQLError } from 'graphql';
import { DatabaseError } from 'pg';
import { ExpectedVersionConflictError } from '../event-store';
import { OwnedByOtherInstanceError } from '../instances';
import { TooManyLiveSessionsError } from '../sessions';
import { NotFoundError } from './domain-error';
import { DomainErrorFilter } from './domain-error.filter';

function hostCapturing() {
  const sent: { status?: number; body?: unknown; headers?: Record<string, string> } = {};
  const response = {
    setHeader(name: string, value: string) {
      sent.headers = { ...sent.headers, [name]: value };
    },
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
    },
  };
  // Nest's own host over (request, response): switchToHttp().getResponse() is the capturing response.
  const host: ArgumentsHost = new ExecutionContextHost([{}, response]);
  return { host, sent };
}

describe('DomainErrorFilter', () => {
  const filter = new DomainErrorFilter();

  it('maps an expected-version conflict to 409 with its code and details', () => {
    const { host, sent } = hostCapturing();
    filter.catch(new ExpectedVersionConflictError('session-1', 3, 5), host);
    expect(sent.status).toBe(409);
    expect(sent.body).toMatchObject({
      code: 'expected_version_conflict',
      details: { streamId: 'session-1', expected: 3, actual: 5 },
    });
    expect((sent.body as { message: string }).message).toContain('read it again and retry');
  });

  it('maps a session another instance holds to 409 naming that instance and its address (issue 15)', () => {
    const { host, sent } = hostCapturing();
    filter.catch(new OwnedByOtherInstanceError('Session s-1', 'inst-b', 'http://sb-b:3000'), host);
    expect(sent).toEqual({
      status: 409,
      body: {
        statusCode: 409,
        code: 'owned_by_other_instance',
        message: 'Session s-1 is live on instance inst-b at http://sb-b:3000; send the request there',
        details: { ownerInstance: 'inst-b', address: 'http://sb-b:3000' },
      },
    });
  });

  it('maps the live-session cap to 429 naming the variable and the count', () => {
    const { host, sent } = hostCapturing();
    filter.catch(new TooManyLiveSessionsError(2, 2), host);
    expect(sent.status).toBe(429);
    expect(sent.body).toMatchObject({ code: 'too_many_live_sessions', details: { max: 2, live: 2 } });
    expect((sent.body as { message: string }).message).toMatch(/2 of SWITCHBOARD_MAX_LIVE_SESSIONS=2 are live/);
  });

  it('maps not_found to 404', () => {
    const { host, sent } = hostCapturing();
    filter.catch(new NotFoundError('Stream x does not exist'), host);
    expect(sent).toEqual({ status: 404, body: expect.objectContaining({ code: 'not_found', statusCode: 404 }) });
  });

  it('keeps Nest HTTP exceptions and gives them a code', () => {
    const { host, sent } = hostCapturing();
    filter.catch(new BadRequestException('limit must be a number'), host);
    expect(sent.status).toBe(400);
    expect(sent.body).toMatchObject({ code: 'invalid_input', statusCode: 400 });
  });

  it("answers Nest's own exceptions in the one shape: no `error` status text, details where the pipe gave some", () => {
    const unknownRoute = hostCapturing();
    filter.catch(new NotFoundException('Cannot GET /nope'), unknownRoute.host);
    expect(unknownRoute.sent.body).toStrictEqual({ statusCode: 404, code: 'not_found', message: 'Cannot GET /nope', details: undefined });
    const schema = hostCapturing();
    filter.catch(new BadRequestException({ code: 'invalid_input', message: 'a: Required', details: { problems: ['a: Required'] } }), schema.host);
    expect(schema.sent.body).toStrictEqual({ statusCode: 400, code: 'invalid_input', message: 'a: Required', details: { problems: ['a: Required'] } });
  });

  it('hides unexpected errors behind a 500 without leaking their text', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { host, sent } = hostCapturing();
    filter.catch(new Error('secret internals'), host);
    expect(logged).toHaveBeenCalled();
    expect(sent.status).toBe(500);
    expect(JSON.stringify(sent.body)).not.toContain('secret internals');
  });

  /** What a read model's query throws when PostgreSQL ended its connection (pg_terminate_backend, a fast shutdown). */
  const terminatedQuery = () => {
    const terminated = new DatabaseError('terminating connection due to administrator command', 0, 'error');
    terminated.code = '57P01';
    return new DrizzleQueryError('select "id" from "agents"', [], terminated);
  };

  it('answers a lost database connection with 503 database_unavailable and Retry-After, not a 500', () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    logged.mockClear();
    const { host, sent } = hostCapturing();
    filter.catch(terminatedQuery(), host);
    expect(sent.status).toBe(503);
    expect(sent.headers).toEqual({ 'Retry-After': '2' });
    expect(sent.body).toMatchObject({ statusCode: 503, code: 'database_unavailable', details: { retryable: true } });
    expect((sent.body as { message: string }).message).toMatch(/database is unavailable \(terminating connection.*\); retry/);
    // The SQL of the failed statement stays in the log.
    expect(JSON.stringify(sent.body)).not.toContain('select');
    expect(logged).not.toHaveBeenCalled();
  });

  it('answers a refused connection (the server is down) with 503 database_unavailable', () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { host, sent } = hostCapturing();
    filter.catch(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), host);
    expect(sent.status).toBe(503);
    expect(sent.body).toMatchObject({ code: 'database_unavailable' });
  });

  describe('in a GraphQL resolver', () => {
    const graphqlHost = new ExecutionContextHost([]);
    graphqlHost.setType('graphql');

    it('gives a lost database connection the same code and status as REST', () => {
      jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const error = filter.catch(terminatedQuery(), graphqlHost);
      expect(error?.extensions).toMatchObject({ code: 'database_unavailable', statusCode: 503, details: { retryable: true, retryAfterSeconds: 2 } });
    });

    it('returns a GraphQLError with the same code, the status REST would answer and the details', () => {
      const error = filter.catch(new ExpectedVersionConflictError('session-1', 3, 5), graphqlHost);
      expect(error).toBeInstanceOf(GraphQLError);
      expect(error?.extensions).toMatchObject({ code: 'expected_version_conflict', statusCode: 409, details: { streamId: 'session-1' } });
    });

    it('keeps the code of Nest HTTP exceptions (the token guard)', () => {
      const error = filter.catch(new UnauthorizedException({ code: 'unauthorized', message: 'send the token' }), graphqlHost);
      expect(error?.message).toBe('send the token');
      expect(error?.extensions).toMatchObject({ code: 'unauthorized', statusCode: 401 });
    });

    it('hides unexpected errors', () => {
      jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const error = filter.catch(new Error('secret internals'), graphqlHost);
      expect(error?.extensions).toMatchObject({ code: 'internal_error' });
      expect(error?.message).not.toContain('secret internals');
    });
  });
});
