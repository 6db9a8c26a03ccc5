import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { buildOpenApiDocument } from './api-docs/openapi-document';
import { AppModule } from './app.module';
import { answerMalformedRequestsAsJson } from './common/malformed-http';
import { jsonBodyParsers } from './common/request-body';
import type { SwitchboardConfig } from './config/switchboard-config';

/** Builds the HTTP app exactly as production runs it; main.ts and the e2e tests both use it. */
export async function createSwitchboardApp(config: SwitchboardConfig): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule.forRoot(config), { bufferLogs: true, bodyParser: false });
  app.useLogger(app.get(Logger));
  app.use(...jsonBodyParsers());
  answerMalformedRequestsAsJson(app.getHttpServer());
  SwaggerModule.setup('api/docs', app, buildOpenApiDocument(app));
  return app;
}
