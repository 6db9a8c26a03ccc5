import { Logger } from '@nestjs/common';
import type { RequestHandler } from 'express';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ThrottledWarning } from '../throttled-warning';
import { endWithJson } from '../raw-http-answer';
import type { RequestFacts, RequestOriginRules, RequestRefusal } from './request-origin-rules';

const logger = new Logger('RequestOrigin');

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The facts the rules read, from Node's request (the same object for an HTTP request and a WebSocket handshake). */
export function requestFactsOf(request: IncomingMessage): RequestFacts {
  return {
    method: (request.method ?? 'GET').toUpperCase(),
    host: header(request, 'host'),
    origin: header(request, 'origin'),
    secFetchSite: header(request, 'sec-fetch-site'),
    secFetchMode: header(request, 'sec-fetch-mode'),
    secFetchDest: header(request, 'sec-fetch-dest'),
    contentType: header(request, 'content-type'),
    localAddress: request.socket.localAddress,
    localPort: request.socket.localPort,
    upgrade: /\bwebsocket\b/i.test(header(request, 'upgrade') ?? ''),
  };
}

/** Refusals, logged with what was asked; a page refused in a loop cannot flood the log (ThrottledWarning). */
export class RefusalLog {
  private readonly warning: ThrottledWarning;

  constructor(burst?: number, windowMs?: number, now?: () => number) {
    this.warning = new ThrottledWarning(logger, 'more requests refused before routing, not logged one by one', burst, windowMs, now);
  }

  record(request: IncomingMessage, refusal: RequestRefusal): void {
    this.warning.warn(
      {
        statusCode: refusal.statusCode,
        code: refusal.code,
        method: request.method,
        path: (request.url ?? '').split('?')[0].slice(0, 200),
        host: header(request, 'host')?.slice(0, 200),
        origin: header(request, 'origin')?.slice(0, 200),
      },
      'request refused before routing',
    );
  }

  get suppressedInWindow(): number {
    return this.warning.suppressedInWindow;
  }
}

/** Express middleware: a refused request is answered here, before the body parser, the console and any route. */
export function requestOriginMiddleware(rules: RequestOriginRules, refusals: RefusalLog): RequestHandler {
  return (request, response, next) => {
    const refusal = rules.refusalOf(requestFactsOf(request));
    if (!refusal) {
      next();
      return;
    }
    refusals.record(request, refusal);
    response.status(refusal.statusCode).json(refusal);
  };
}

/**
 * Node hands a WebSocket handshake to the server's 'upgrade' listeners, past express: graphql-ws's
 * listener (added when the GraphQL module starts, after this runs) would complete it for any page.
 * Intercepting the event itself puts the rules in front of every listener, present and future, and a
 * refused handshake gets an HTTP answer: the socket never becomes a WebSocket.
 */
export function guardWebSocketUpgrades(
  server: Server,
  rules: RequestOriginRules,
  refusals: RefusalLog,
  webSocketPaths: readonly string[] = ['/graphql'],
): void {
  const emit: (event: string, ...args: unknown[]) => boolean = server.emit.bind(server);
  server.emit = (event: string, ...args: unknown[]): boolean => {
    if (event === 'upgrade') {
      const [request, socket] = args as [IncomingMessage, Duplex];
      const refusal = rules.refusalOf(requestFactsOf(request));
      if (refusal) {
        refusals.record(request, refusal);
        refuseHandshake(socket, refusal);
        return true;
      }
      // No listener answers a handshake on another path: without this the socket would stay open, unanswered.
      const path = (request.url ?? '').split('?')[0];
      if (!webSocketPaths.includes(path)) {
        refuseHandshake(socket, {
          statusCode: 404,
          code: 'not_found',
          message: `No WebSocket at ${path.slice(0, 200)}: GraphQL subscriptions are at ${webSocketPaths.join(', ')}`,
        });
        return true;
      }
    }
    return emit(event, ...args);
  };
}

function refuseHandshake(socket: Duplex, refusal: { statusCode: number; code: string; message: string }): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  endWithJson(socket, refusal.statusCode, refusal);
}
