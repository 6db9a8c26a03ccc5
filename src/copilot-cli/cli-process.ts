import type { Logger } from '@nestjs/common';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { CopilotCliConfig } from '../config';
import { defaultCliCommand } from './cli-binary';
import { cliEnvironment } from './cli-environment';

export interface CliCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Where it runs: the sessions' working directory (each session.create names it as well). Unset: the service's. */
  cwd?: string;
}

/** After SIGTERM, how long the CLI has to exit before SIGKILL. */
export const STOP_GRACE_MS = 3_000;
/** How much of the CLI's stderr is kept for the logs of an exit or a failed start. */
const STDERR_TAIL_LINES = 20;
const STDERR_LINE_CHARS = 2000;

/**
 * What to spawn: the configured binary (or the installed package's), headless over stdio, in the
 * minimal environment of `cliEnvironment()`.
 */
export function cliCommand(
  config: CopilotCliConfig,
  envPassthrough: readonly string[],
  parentEnv: NodeJS.ProcessEnv,
  installed: () => { command: string; args: string[] } = defaultCliCommand,
): CliCommand {
  const { command, args } = config.path ? { command: config.path, args: [] as string[] } : installed();
  const fullArgs = [...args, '--headless', '--no-auto-update', '--stdio', ...(config.githubToken ? [] : ['--no-auto-login']), ...config.extraArgs];
  const env = cliEnvironment(parentEnv, { passthrough: envPassthrough, home: config.home, githubToken: config.githubToken });
  // The CLI reads COPILOT_PROVIDER_BASE_URL from its environment too and, without COPILOT_MODEL,
  // exits at start ("BYOK providers require an explicit model"): give it the service's default.
  if (env.COPILOT_PROVIDER_BASE_URL && !env.COPILOT_MODEL) env.COPILOT_MODEL = config.defaultModel;
  return { command, args: fullArgs, env, cwd: config.workingDirectory };
}

export interface CliProcessOptions {
  logger: Pick<Logger, 'log' | 'debug' | 'error'>;
  /** The process exited, whoever asked for it; told once. */
  onExit(code: number | null, signal: string | null): void;
}

/**
 * One spawned CLI: its own process group (stopping it also stops what it started: the npm loader
 * runs the real binary as its child), stdio piped, stderr logged at debug and its tail kept.
 */
export class CliProcess {
  private readonly stderrLines: string[] = [];

  private constructor(private readonly child: ChildProcess) {}

  static spawn(cli: CliCommand, options: CliProcessOptions): CliProcess {
    // The working directory is made here, on the CLI's host: one reached over COPILOT_CLI_URL has its own.
    if (cli.cwd !== undefined) fs.mkdirSync(cli.cwd, { recursive: true });
    const child = spawn(cli.command, cli.args, { env: cli.env, cwd: cli.cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const cliProcess = new CliProcess(child);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) cliProcess.keepStderr(line.slice(0, STDERR_LINE_CHARS), options.logger);
    });
    child.on('error', (error) => options.logger.error({ err: error, command: cli.command }, 'Copilot CLI process error'));
    child.once('exit', (code, signal) => options.onExit(code, signal));
    options.logger.log({ command: cli.command, args: cli.args, pid: child.pid }, 'Copilot CLI spawned');
    return cliProcess;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stdout(): Readable {
    return this.child.stdout!;
  }

  get stdin(): Writable {
    return this.child.stdin!;
  }

  get hasExited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** The last lines the CLI wrote to stderr, oldest first: why it would not start, usually. */
  stderrTail(): string {
    return this.stderrLines.join('\n');
  }

  /** At once, the whole group: for a CLI whose output cannot be read any more. */
  kill(): void {
    signalGroup(this.child, 'SIGKILL');
  }

  /** SIGTERM to the group, SIGKILL after `graceMs`; settles once the process is gone. */
  stop(graceMs = STOP_GRACE_MS): Promise<void> {
    const child = this.child;
    if (this.hasExited) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const killer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
      killer.unref();
      child.once('exit', () => {
        clearTimeout(killer);
        resolve();
      });
      signalGroup(child, 'SIGTERM');
    });
  }

  private keepStderr(line: string, logger: CliProcessOptions['logger']): void {
    logger.debug({ cli: line }, 'cli stderr');
    this.stderrLines.push(line);
    if (this.stderrLines.length > STDERR_TAIL_LINES) this.stderrLines.shift();
  }
}

/** Signals the CLI's whole process group; falls back to the process alone where groups are unavailable. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) {
      process.kill(-child.pid, signal);
      return;
    }
  } catch {
    // no such group (already gone) or not supported: signal the process itself
  }
  child.kill(signal);
}

const MAX_RESTART_DELAY_MS = 30_000;
/** Unexpected exits counted for `exitsLastMinute` (readiness calls several a crash loop). */
const EXIT_WINDOW_MS = 60_000;

/**
 * When to restart a CLI that went away unasked: 500 ms doubling per attempt up to 30 s, reset by a
 * successful start; and how often it went away in the last minute.
 */
export class CliRestartPolicy {
  private attempts = 0;
  private exitTimes: number[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** Records an unexpected exit; the delay before the next start. */
  exited(): number {
    this.exitTimes = [...this.recentExits(), this.now()];
    const delay = Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** this.attempts);
    this.attempts += 1;
    return delay;
  }

  started(): void {
    this.attempts = 0;
  }

  exitsLastMinute(): number {
    return this.recentExits().length;
  }

  private recentExits(): number[] {
    const since = this.now() - EXIT_WINDOW_MS;
    return this.exitTimes.filter((t) => t > since);
  }
}
