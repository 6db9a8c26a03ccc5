import { Reflector } from '@nestjs/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiTokenGuard, UNAUTHORIZED_MESSAGE } from '../common/auth/api-token.guard';
import type { SwitchboardConfig } from '../config/switchboard-config';

/**
 * Swagger's routes are plain Express handlers, out of reach of the global guard: this puts
 * `/api/docs` (UI) and `/api/docs-json` behind the API token like `/api`, unless
 * SWITCHBOARD_API_DOCS_PUBLIC=true opens them (a browser cannot send the bearer header itself).
 */
export function apiDocsAccess(config: SwitchboardConfig): RequestHandler {
  const guard = new ApiTokenGuard(new Reflector(), config);
  return (request: Request, response: Response, next: NextFunction) => {
    if (config.apiDocs.public || guard.allows(request.headers.authorization)) {
      next();
      return;
    }
    response.status(401).json({ statusCode: 401, code: 'unauthorized', message: UNAUTHORIZED_MESSAGE });
  };
}
