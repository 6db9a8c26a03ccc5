import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Histogram } from 'prom-client';
import { SwitchboardMetrics } from './switchboard-metrics';

const DURATION_BUCKETS_SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * HTTP request duration by method, route pattern and status. The label is the route as declared
 * (`/api/sessions/:id`), never the raw URL: ids and unknown paths would make a series each.
 */
@Injectable()
export class HttpMetrics {
  private readonly duration: Histogram<'method' | 'route' | 'status_code'>;

  constructor(metrics: SwitchboardMetrics) {
    this.duration = new Histogram({
      name: 'switchboard_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: DURATION_BUCKETS_SECONDS,
      registers: [metrics.registry],
    });
  }

  /** Express middleware, mounted first; the route is known only once the response is done. */
  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    response.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.duration.observe({ method: request.method, route: routeOf(request), status_code: String(response.statusCode) }, seconds);
    });
    next();
  };
}

/** Nest answers unknown paths with a 404 from a catch-all route. */
const CATCH_ALL = new Set(['/{*path}', '*', '/*']);

/** The matched route's pattern; the few routes Express does not declare by pattern; `unmatched` for the rest. */
export function routeOf(request: Pick<Request, 'route' | 'baseUrl' | 'originalUrl'>): string {
  const pattern = (request.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string' && !CATCH_ALL.has(pattern)) return `${request.baseUrl ?? ''}${pattern}`;
  const path = (request.originalUrl ?? '').split('?')[0];
  if (path === '/graphql') return '/graphql';
  if (path === '/api/docs' || path.startsWith('/api/docs/')) return '/api/docs';
  return 'unmatched';
}
