import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Paths the service itself answers: the console never shadows them, even for a browser asking for HTML. */
const SERVICE_PATHS = /^\/(api|graphql|health|metrics|auth)(\/|$)/;

/**
 * What a browser may do with the console's pages: scripts, styles and API calls from this origin only
 * (graphql-ws included: 'self' covers ws: and wss: on the same host), no framing, no plugins.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export type ConsoleBundle = { state: 'served'; dir: string } | { state: 'missing'; dir: string } | { state: 'disabled' };

export function consoleBundle(dir: string | undefined): ConsoleBundle {
  if (dir === undefined) return { state: 'disabled' };
  return fs.existsSync(path.join(dir, 'index.html')) ? { state: 'served', dir } : { state: 'missing', dir };
}

/**
 * The web console at `/`, same origin as /api and /graphql: the built files with long caching for the
 * hashed assets, and index.html (never cached, so a new build is picked up) for any other page a
 * browser asks for, so deep links work. The files are public; the API behind them keeps its token.
 */
export function serveConsole(bundle: ConsoleBundle): RequestHandler[] {
  if (bundle.state === 'disabled') return [];
  if (bundle.state === 'missing') return [pageRequest(consoleNotBuilt(bundle.dir))];
  const index = path.join(bundle.dir, 'index.html');
  const files = express.static(bundle.dir, {
    index: false,
    redirect: false,
    setHeaders: (response, file) => {
      securityHeaders(response);
      const hashed = file.startsWith(path.join(bundle.dir, 'assets') + path.sep);
      response.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return [
    graphqlIde(path.join(bundle.dir, GRAPHQL_IDE_PAGE)),
    (request, response, next) => {
      if (SERVICE_PATHS.test(request.path)) next();
      else void files(request, response, next);
    },
    pageRequest((_request, response) => {
      securityHeaders(response);
      response.setHeader('Cache-Control', 'no-cache');
      response.sendFile(index);
    }),
  ];
}

/** The GraphQL IDE's page in the built console (web/graphiql.html, a Vite entry of its own). */
export const GRAPHQL_IDE_PAGE = 'graphiql.html';

/**
 * The IDE's editor (Monaco) writes its styles into <style> elements as it runs: its page allows inline
 * styles, never inline scripts; its workers are files of the bundle ('self').
 */
export const GRAPHQL_IDE_CONTENT_SECURITY_POLICY = CONSOLE_CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'").replace(
  "img-src 'self' data:",
  "img-src 'self' data:; font-src 'self' data:; worker-src 'self'",
);

/**
 * `GET /graphql` from a browser (Accept prefers text/html) is the GraphQL IDE; API clients (JSON, or no
 * preference) go on to the GraphQL server as before. The IDE's own requests are JSON POSTs with the token.
 */
function graphqlIde(page: string): RequestHandler {
  return (request, response, next) => {
    const isBrowser =
      (request.method === 'GET' || request.method === 'HEAD') && request.path === '/graphql' && request.accepts(['json', 'html']) === 'html';
    if (!isBrowser || !fs.existsSync(page)) {
      next();
      return;
    }
    securityHeaders(response);
    response.setHeader('Content-Security-Policy', GRAPHQL_IDE_CONTENT_SECURITY_POLICY);
    response.setHeader('Cache-Control', 'no-cache');
    response.setHeader('Vary', 'Accept');
    response.sendFile(page);
  };
}

/** A GET for a page (a browser navigating, Accept: text/html) outside the service's own paths. */
function pageRequest(answer: (request: Request, response: Response) => void): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') && !SERVICE_PATHS.test(request.path) && request.accepts(['json', 'html']) === 'html';
    if (isPage) answer(request, response);
    else next();
  };
}

function consoleNotBuilt(dir: string) {
  return (_request: Request, response: Response) => {
    securityHeaders(response);
    response
      .status(503)
      .type('html')
      .send(
        `<!doctype html><title>Switchboard</title><h1>The console is not built</h1>` +
          `<p>No <code>index.html</code> in <code>${escapeHtml(dir)}</code>. Run <code>npm run build:web</code> (or <code>npm start</code>, which builds it), ` +
          `or set <code>SWITCHBOARD_CONSOLE_DIR</code> to a built console. The API is at <a href="/api/docs">/api/docs</a>.</p>`,
      );
  };
}

function securityHeaders(response: Response): void {
  response.setHeader('Content-Security-Policy', CONSOLE_CONTENT_SECURITY_POLICY);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('X-Frame-Options', 'DENY');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
