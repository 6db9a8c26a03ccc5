import type { RequestHandler } from 'express';

/** Every answer's policy on being shown inside another page: never (`frame-ancestors` for browsers, the other for older ones). */
export const FRAME_REFUSAL_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
};

/**
 * Express middleware, early in the chain, so that no page, route or refusal can forget it (issue 39:
 * Swagger UI at /api/docs, framed near-invisibly by another site, was clicked through into POST
 * /api/keys). A page with a stricter policy of its own (the console's) replaces the CSP header with
 * one that also says `frame-ancestors 'none'`.
 */
export function refuseFraming(): RequestHandler {
  return (_request, response, next) => {
    for (const [name, value] of Object.entries(FRAME_REFUSAL_HEADERS)) response.setHeader(name, value);
    next();
  };
}
