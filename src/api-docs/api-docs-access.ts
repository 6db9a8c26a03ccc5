import { HttpException, UnauthorizedException } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { SwitchboardConfig } from '../config';
import type { PrincipalResolver } from '../identity';

/** The console's page that shows these docs with the console's own credential (web/src/api-docs). */
export const CONSOLE_API_DOCS_PAGE = '/docs/api';

/**
 * Swagger's routes are plain Express handlers, out of reach of the global guard: this puts
 * `/api/docs` (UI) and `/api/docs-json` behind the same principals as `/api` (token, named key, session), unless
 * SWITCHBOARD_API_DOCS_PUBLIC=true opens them. A browser cannot send the bearer header on a navigation:
 * when the console is served, a refused page request for the UI goes to the console's API docs page,
 * which fetches the document with the tab's token or key and sends it on every call it tries.
 */
export function apiDocsAccess(config: SwitchboardConfig, principals: PrincipalResolver): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    if (config.apiDocs.public) {
      next();
      return;
    }
    principals.principalOf(request).then(
      () => next(),
      (error: unknown) => {
        if (!(error instanceof HttpException)) {
          next(error);
          return;
        }
        if (error instanceof UnauthorizedException && config.console.dir !== undefined && isPageOfTheUi(request)) {
          response.setHeader('Cache-Control', 'no-store');
          response.redirect(303, CONSOLE_API_DOCS_PAGE);
          return;
        }
        // The refusal of /api, word for word: which credential was wrong (401), a cookie from another site (403),
        // and where a person signs in.
        const status = error.getStatus();
        const body = error.getResponse();
        response.status(status).json({ statusCode: status, ...(typeof body === 'object' ? body : { message: body }) });
      },
    );
  };
}

/** A browser asking for Swagger UI's page itself (not its assets, not the document). */
function isPageOfTheUi(request: Request): boolean {
  const path = request.originalUrl.split('?')[0];
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    (path === '/api/docs' || path === '/api/docs/') &&
    request.accepts(['json', 'html']) === 'html'
  );
}
