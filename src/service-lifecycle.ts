import type { INestApplication, LoggerService } from '@nestjs/common';
import { InvalidConfigurationError } from './config';

/** Where the service meant to listen, to name PORT and HOST when listening fails. */
export interface ListenTarget {
  port: number;
  host: string;
}

/**
 * A start-up refusal as the one line an operator reads: the file or variable to fix, no stack.
 * Errors the service does not know (bugs) keep their stack when `withStack` is set (LOG_LEVEL=debug).
 */
export function startupRefusal(error: unknown, target?: ListenTarget, withStack = false): string {
  if (error instanceof InvalidConfigurationError) return `invalid configuration: ${error.problems.join('; ')}`;
  const listen = target && listenProblem(error, target);
  if (listen) return listen;
  const message = error instanceof Error ? error.message : String(error);
  const line = message.replace(/\s*\n\s*/g, ' ').trim();
  return withStack && error instanceof Error && error.stack ? `${line}\n${error.stack}` : line;
}

function listenProblem(error: unknown, { port, host }: ListenTarget): string | undefined {
  const where = `${host}:${port} (PORT=${port}, HOST=${host})`;
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is already in use; stop the other process or set another PORT`;
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges); set another PORT`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${where}: HOST is not an address of this machine`;
    default:
      return undefined;
  }
}

/**
 * How long a stop may take before the process exits anyway: queued appends, the CLI (3 s, then
 * SIGKILL) and open HTTP streams. Below docker compose's stop_grace_period (30 s).
 */
export const SHUTDOWN_TIMEOUT_MS = 20_000;

/**
 * Stops the app gracefully on SIGTERM or SIGINT, then exits (0, or 1 if the stop failed or overran).
 * A repeated signal is ignored: Ctrl-C under `npm start` delivers SIGINT twice (the terminal signals
 * the whole group and npm forwards its own), and Node's default for the second would kill the
 * process mid-shutdown.
 */
export function stopOnSignals(app: INestApplication, logger: LoggerService, timeoutMs = SHUTDOWN_TIMEOUT_MS): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.log({ signal }, 'already shutting down');
      return;
    }
    stopping = true;
    logger.log({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, timeoutMs);
    app.close().then(
      () => {
        clearTimeout(deadline);
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
