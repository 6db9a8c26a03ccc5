import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SwaggerModule } from '@nestjs/swagger';
import { json } from 'express';
import { Logger } from 'nestjs-pino';
import { buildOpenApiDocument } from './api-docs/openapi-document';
import { AppModule } from './app.module';
import type { SwitchboardConfig } from './config/switchboard-config';

/** Builds the HTTP app exactly as production runs it; main.ts and the e2e tests both use it. */
export async function createSwitchboardApp(config: SwitchboardConfig): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule.forRoot(config), { bufferLogs: true, bodyParser: false });
  app.useLogger(app.get(Logger));
  app.use(json({ limit: '1mb' }));
  SwaggerModule.setup('api/docs', app, buildOpenApiDocument(app));
  return app;
}
