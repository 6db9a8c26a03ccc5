import type { INestApplicationContext } from '@nestjs/common';
import type { SwitchboardConfig } from '../config/switchboard-config';

/**
 * The service's modules without HTTP, on the configured database, for maintenance commands. Loaded
 * lazily so that a usage error answers at once and opens nothing; Nest's own logs are off and errors
 * come back to the caller to be printed once, as one line.
 */
export async function openMaintenanceApp(): Promise<{ app: INestApplicationContext; config: SwitchboardConfig }> {
  const { NestFactory } = await import('@nestjs/core');
  const { loadConfig } = await import('../config/switchboard-config');
  const { MaintenanceModule } = await import('./maintenance.module');
  const config = { ...loadConfig(), logLevel: 'warn' };
  const app = await NestFactory.createApplicationContext(MaintenanceModule.forRoot(config), { logger: false, abortOnError: false });
  return { app, config };
}

/** Runs a command's main and exits with its code; an unexpected error is one line on stderr and exit 1. */
export function runMaintenanceCommand(name: string, main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
