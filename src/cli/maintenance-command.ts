import type { INestApplicationContext } from '@nestjs/common';
import type { SwitchboardConfig } from '../config';

/**
 * The service's modules without HTTP, on the configured database, for maintenance commands. Loaded
 * lazily so that a usage error answers at once and opens nothing; Nest's own logs are off and errors
 * come back to the caller to be printed once, as one line.
 */
export async function openMaintenanceApp(): Promise<{ app: INestApplicationContext; config: SwitchboardConfig }> {
  const { NestFactory } = await import('@nestjs/core');
  const { loadConfig } = await import('../config');
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

/** A command line the command cannot run: its reason is printed with the usage, exit 2. */
export class UsageError extends Error {}

/**
 * `runMaintenanceCommand` for a command with a usage text: `--help` (or `-h`) prints it, exit 0; a
 * `UsageError` from `parse` prints its reason and the usage, exit 2, before `run` loads or opens anything.
 */
export function runCommandWithUsage<Args>(name: string, usage: string, parse: (argv: string[]) => Args, run: (args: Args) => Promise<number>): void {
  runMaintenanceCommand(name, async (argv) => {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(usage);
      return 0;
    }
    let args: Args;
    try {
      args = parse(argv);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      process.stderr.write(`${name}: ${error.message}\n${usage}`);
      return 2;
    }
    return run(args);
  });
}

/** The one folder a command works on: no options, exactly one positional argument. */
export function folderArgument(argv: string[]): string {
  const options = argv.filter((a) => a.startsWith('-'));
  const positional = argv.filter((a) => !a.startsWith('-'));
  if (options.length > 0) throw new UsageError(`unknown option ${options[0]}`);
  if (positional.length !== 1) throw new UsageError(positional.length === 0 ? 'which folder?' : 'give exactly one folder');
  return positional[0];
}
