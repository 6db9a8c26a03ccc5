import { type INestApplication, Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SwaggerModule } from '@nestjs/swagger';
import type { Server } from 'node:http';
import { Logger } from 'nestjs-pino';
import { apiDocsAccess, buildOpenApiDocument } from './api-docs';
import { PrincipalResolver } from './identity';
import { AppModule } from './app.module';
import { consoleBundle, serveConsole } from './console';
import {
  answerMalformedRequestsAsJson,
  jsonBodyParsers,
  refuseFraming,
  guardWebSocketUpgrades,
  RefusalLog,
  requestOriginMiddleware,
  RequestOriginRules,
} from './common';
import type { SwitchboardConfig } from './config';
import { HttpMetrics } from './metrics';

/** Builds the HTTP app exactly as production runs it; main.ts and the e2e tests both use it. */
export async function createSwitchboardApp(config: SwitchboardConfig): Promise<INestApplication> {
  let app: INestApplication;
  try {
    // A failing module (an unusable database, say) rejects here instead of Nest logging its stack and
    // exiting: main.ts prints one line. Nest's start-up logs wait in a buffer until pino is in place.
    app = await NestFactory.create(AppModule.forRoot(config), { bufferLogs: true, autoFlushLogs: false, abortOnError: false, bodyParser: false });
  } catch (error) {
    discardBufferedLogs();
    throw error;
  }
  app.useLogger(app.get(Logger));
  app.flushLogs();
  // First, so that every request is timed, the ones the body parser refuses included.
  app.use(app.get(HttpMetrics).middleware);
  // Next, so that every answer after it (refusals, Swagger UI, GraphQL, the console, a 404) refuses to be framed.
  app.use(refuseFraming());
  // Before anything reads the request: a foreign Host, a foreign page or a simple-request POST goes no further.
  const origins = requestOriginRules(config);
  const refusals = new RefusalLog();
  app.use(requestOriginMiddleware(origins, refusals));
  guardWebSocketUpgrades(app.getHttpServer() as Server, origins, refusals);
  app.use(...jsonBodyParsers());
  answerMalformedRequestsAsJson(app.getHttpServer() as Server);
  app.use(['/api/docs', '/api/docs-json', '/api/docs-yaml'], apiDocsAccess(config, app.get(PrincipalResolver)));
  SwaggerModule.setup('api/docs', app, buildOpenApiDocument(app));
  const bundle = consoleBundle(config.console.dir);
  const handlers = serveConsole(bundle);
  if (handlers.length > 0) app.use(...handlers);
  if (bundle.state === 'missing') app.get(Logger).warn({ dir: bundle.dir }, 'the web console is not built: / explains how (npm run build:web)');
  return app;
}

/** Which Host names and page origins the service answers (src/common/request-origin). */
export function requestOriginRules(config: SwitchboardConfig): RequestOriginRules {
  return new RequestOriginRules({
    listenHost: config.host,
    publicUrl: config.instances.publicUrl,
    allowedHosts: config.requestOrigin.allowedHosts,
    allowedOrigins: config.requestOrigin.allowedOrigins,
  });
}

/** Drops what Nest buffered during a failed start (its module list and the error with its stack). */
function discardBufferedLogs(): void {
  NestLogger.overrideLogger(false);
  NestLogger.flush();
}
