import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSwitchboardApp, requestOriginRules } from './bootstrap';
import { loadConfig, type SwitchboardConfig, isLoopback } from './config';
import { consoleBundle } from './console';
import { startBanner } from './start-banner';
import { type ListenTarget, startupRefusal, stopOnSignals } from './service-lifecycle';

async function main(): Promise<void> {
  let config: SwitchboardConfig | undefined;
  let app: INestApplication | undefined;
  try {
    config = loadConfig();
    app = await createSwitchboardApp(config);
    await app.listen(config.port, config.host);
  } catch (error) {
    await app?.close().catch(() => undefined); // listen failed: close the database the app opened
    refuse(error, config);
  }
  const logger = new Logger('Switchboard');
  const origins = requestOriginRules(config);
  const served = { hosts: origins.servedHosts(config.port), origins: config.requestOrigin.allowedOrigins };
  const signIn = config.signIn.oidc !== undefined;
  const auth = [config.apiToken ? 'bearer token' : undefined, signIn ? 'sign-in' : undefined].filter(Boolean).join(' + ') || 'open';
  logger.log({ port: config.port, host: config.host, auth, served }, 'listening');
  // A person at a terminal gets one line saying where to go; piped or collected output stays JSON only.
  if (process.stdout.isTTY) {
    const { port } = (app.getHttpServer() as Server).address() as AddressInfo; // PORT=0 picks one
    const facts = { host: config.host, port, publicUrl: config.instances.publicUrl, tokenRequired: Boolean(config.apiToken), signIn };
    process.stdout.write(`${startBanner({ ...facts, console: consoleBundle(config.console.dir).state })}\n`);
  }
  if (!config.apiToken && !signIn && !isLoopback(config.host)) {
    logger.warn({ host: config.host }, 'SWITCHBOARD_ALLOW_UNAUTHENTICATED=true: the API is open to anyone who reaches this address');
  }
  if (!isLoopback(config.host) && !origins.namesConfigured) {
    logger.warn(
      { host: config.host },
      'neither SWITCHBOARD_ALLOWED_HOSTS nor SWITCHBOARD_PUBLIC_URL is set: requests that name this machine by a DNS name are answered 421 (its IP addresses work); list the names clients use',
    );
  }

  // Graceful stop: queued appends are committed, the CLI's process group stopped and the database closed before exit 0.
  stopOnSignals(app, logger);
}

/** Start-up refusals (bad config, unusable database, busy port) end here: one readable line, exit code 1. */
function refuse(error: unknown, target?: ListenTarget): never {
  const debug = /^(debug|trace)$/i.test(process.env.LOG_LEVEL ?? '');
  process.stderr.write(`switchboard: failed to start: ${startupRefusal(error, target, debug)}\n`);
  process.exit(1);
}

main().catch((error: unknown) => refuse(error));
