import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { CopilotCliConfig } from '../config';
import { defaultCliCommand } from './cli-binary';

const REACH_TIMEOUT_MS = 1_000;

/**
 * Why the CLI could not be started (or reached) now, or undefined when it could: the binary resolves
 * and is executable, or COPILOT_CLI_URL accepts a connection. Starts nothing: readiness asks it while
 * the CLI is not running (it starts on the first session), and must not spawn one just to answer.
 */
export async function cliStartProblem(config: CopilotCliConfig): Promise<string | undefined> {
  if (config.url) return unreachable(config.url);
  if (config.path) return notExecutable(config.path, 'COPILOT_CLI_PATH');
  let command: string;
  try {
    command = defaultCliCommand().command;
  } catch (error) {
    return (error as Error).message;
  }
  return notExecutable(command, 'the @github/copilot binary');
}

function notExecutable(command: string, what: string): string | undefined {
  // A bare name is looked up on PATH, as spawn does.
  const candidates = command.includes(path.sep)
    ? [command]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return undefined;
    } catch {
      // not this one
    }
  }
  return `${what} ${command} is not an executable file`;
}

function unreachable(url: string): Promise<string | undefined> {
  const host = url.slice(0, url.lastIndexOf(':'));
  const port = Number(url.slice(url.lastIndexOf(':') + 1));
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (problem: string | undefined) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(REACH_TIMEOUT_MS, () => done(`COPILOT_CLI_URL ${url} did not accept a connection within ${REACH_TIMEOUT_MS} ms`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (error) => done(`COPILOT_CLI_URL ${url} is not reachable: ${error.message}`));
  });
}
