import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { UNAUTHORIZED_MESSAGE } from '../common/auth/api-token.guard';
import type { SwitchboardConfig } from '../config/switchboard-config';
import type { PrincipalResolver } from '../identity/principal-resolver';

/**
 * Swagger's routes are plain Express handlers, out of reach of the global guard: this puts
 * `/api/docs` (UI) and `/api/docs-json` behind the same principals as `/api` (token, named key, session), unless
 * SWITCHBOARD_API_DOCS_PUBLIC=true opens them (a browser cannot send the bearer header itself).
 */
export function apiDocsAccess(config: SwitchboardConfig, principals: PrincipalResolver): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    if (config.apiDocs.public) {
      next();
      return;
    }
    principals.principalOrNone(request).then(
      (principal) => (principal ? next() : response.status(401).json({ statusCode: 401, code: 'unauthorized', message: UNAUTHORIZED_MESSAGE })),
      (error: unknown) => next(error),
    );
  };
}
