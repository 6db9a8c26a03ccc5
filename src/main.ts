import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createSwitchboardApp } from './bootstrap';
import { loadConfig } from './config/switchboard-config';
import { isLoopback } from './outbound/outbound-address';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createSwitchboardApp(config);
  await app.listen(config.port, config.host);
  const logger = new Logger('Switchboard');
  logger.log({ port: config.port, host: config.host, auth: config.apiToken ? 'bearer token' : 'open' }, 'listening');
  if (!config.apiToken && !isLoopback(config.host)) {
    logger.warn({ host: config.host }, 'SWITCHBOARD_ALLOW_UNAUTHENTICATED=true: the API is open to anyone who reaches this address');
  }

  // Graceful stop: queued appends are committed and the database is closed before exit 0.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.log({ signal }, 'shutting down');
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

main().catch((error: unknown) => {
  // Start-up refusals (bad config, unusable database) end here: one readable line, exit code 1.
  process.stderr.write(`switchboard: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
