import { ExecutionContext, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import crypto from 'node:crypto';
import { loadConfig } from '../../config';
import { ApiTokenGuard } from './api-token.guard';
import { IS_PUBLIC } from './public.decorator';

/** Nest's own ExecutionContext over an HTTP request with these headers, for a handler. */
function httpContext(headers: Record<string, string | undefined>, handler: () => void = () => undefined): ExecutionContext {
  return new ExecutionContextHost([{ headers }, {}], class {}, handler);
}

function contextWith(authorization: string | undefined, isPublic = false): ExecutionContext {
  const handler = () => undefined;
  if (isPublic) Reflect.defineMetadata(IS_PUBLIC, true, handler);
  return httpContext({ authorization }, handler);
}

/** A GraphQL resolver's context: args are (root, args, context, info). */
function graphqlContextWith(context: unknown): ExecutionContext {
  const host = new ExecutionContextHost([undefined, {}, context, {}], class {}, () => undefined);
  host.setType('graphql');
  return host;
}

describe('ApiTokenGuard', () => {
  const token = 'correct-horse-battery-staple';
  const guard = new ApiTokenGuard(new Reflector(), loadConfig({ SWITCHBOARD_API_TOKEN: token }));

  it('lets the right bearer token through', () => {
    expect(guard.canActivate(contextWith(`Bearer ${token}`))).toBe(true);
  });

  it.each(['bearer', 'BEARER', 'bEaReR'])('takes the scheme %s in any case (RFC 9110)', (scheme) => {
    expect(guard.canActivate(contextWith(`${scheme} ${token}`))).toBe(true);
    expect(guard.allows(`${scheme} ${token}`)).toBe(true);
    expect(() => guard.canActivate(contextWith(`${scheme} wrong`))).toThrow(UnauthorizedException);
  });

  it.each([undefined, '', 'Bearer', `Bearer${token}`, `Bearer ${token}x`, `Basic ${token}`, 'Bearer wrong', `xBearer ${token}`])(
    'refuses %p with a 401 that says which header to send',
    (header) => {
      expect(() => guard.canActivate(contextWith(header))).toThrow(UnauthorizedException);
      expect(() => guard.canActivate(contextWith(header))).toThrow(/Authorization: Bearer/);
    },
  );

  it("compares equal-length digests whatever the length sent, so a refusal does not tell the token's length", () => {
    const compare = jest.spyOn(crypto, 'timingSafeEqual');
    try {
      for (const given of ['x', 'y'.repeat(token.length), `${token}${token}`, token]) guard.allows(`Bearer ${given}`);
      expect(compare).toHaveBeenCalledTimes(4);
      for (const [a, b] of compare.mock.calls) expect([a.byteLength, b.byteLength]).toEqual([32, 32]);
      expect(compare.mock.results.map((r) => r.value)).toEqual([false, false, false, true]);
    } finally {
      compare.mockRestore();
    }
  });

  it('opens a @PublicWhen() route only when the configuration says so', () => {
    const handler = () => undefined;
    Reflect.defineMetadata(IS_PUBLIC, (config: { metrics: { public: boolean } }) => config.metrics.public, handler);
    const context = httpContext({}, handler);
    expect(() => guard.canActivate(context)).toThrow(UnauthorizedException);
    const open = new ApiTokenGuard(new Reflector(), loadConfig({ SWITCHBOARD_API_TOKEN: token, SWITCHBOARD_METRICS_PUBLIC: 'true' }));
    expect(open.canActivate(context)).toBe(true);
  });

  it('leaves @Public() routes open', () => {
    expect(guard.canActivate(contextWith(undefined, true))).toBe(true);
  });

  it('reads the token of a GraphQL operation from its HTTP request or its WebSocket connection params', () => {
    expect(guard.canActivate(graphqlContextWith({ req: { headers: { authorization: `Bearer ${token}` } } }))).toBe(true);
    expect(guard.canActivate(graphqlContextWith({ connectionParams: { Authorization: `Bearer ${token}` } }))).toBe(true);
    expect(guard.canActivate(graphqlContextWith({ connectionParams: { authorization: `Bearer ${token}` } }))).toBe(true);
    for (const context of [{ req: { headers: {} } }, { connectionParams: { Authorization: 'Bearer nope' } }, {}]) {
      expect(() => guard.canActivate(graphqlContextWith(context))).toThrow(UnauthorizedException);
    }
  });

  it('is open when no token is configured', () => {
    const open = new ApiTokenGuard(new Reflector(), loadConfig({}));
    expect(open.canActivate(contextWith(undefined))).toBe(true);
  });
});
