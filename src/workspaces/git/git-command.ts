import { spawn } from 'node:child_process';
import { configFilesOf, DriversCache, signatureOf } from './drivers-cache';
import { DRIVER_KEYS, gitEnvironment, type GitIdentity, NO_DRIVERS, parseDriverKeys, type RepositoryDrivers } from './hardening';

/** Diffs of a whole repository and merges of big trees print a lot: buffered whole, up to this. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 60_000;

export interface GitOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface GitRunOptions {
  /** Exit codes that are answers rather than failures (`rev-parse --verify -q` exits 1 for "no such ref"). */
  allowExitCodes?: readonly number[];
  /** Extra environment, e.g. GIT_INDEX_FILE for a temporary index. */
  env?: Readonly<Record<string, string>>;
  /** Written to git's stdin (closed otherwise, so nothing ever waits on it). */
  input?: string;
  timeoutMs?: number;
  /** Author and committer; default "Switchboard" <switchboard@localhost>. */
  identity?: GitIdentity;
  /**
   * The drivers of the repository at `cwd`, when the caller has just read them (readRepositoryDrivers) for
   * several commands in a row; read here otherwise, so no call can forget them.
   */
  drivers?: RepositoryDrivers;
}

/** git exited with a code the caller did not allow (or could not be started, or timed out: exitCode -1). */
export class GitCommandError extends Error {
  constructor(
    readonly subcommand: string,
    readonly cwd: string,
    readonly exitCode: number,
    readonly stderr: string,
    readonly stdout = '',
  ) {
    super(`git ${subcommand} failed in ${cwd}: ${firstMessageLine(stderr) || `exit code ${exitCode}`}`);
    this.name = 'GitCommandError';
  }
}

/** The line that says what went wrong: git prints progress ("Preparing worktree...") before `fatal:`. */
function firstMessageLine(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim());
  return lines.find((line) => /^(fatal|error):/.test(line)) ?? lines.find(Boolean) ?? '';
}

/**
 * The one way this module runs git: no shell, args as an array, hardened environment (hardening.ts), the
 * repository's filter and merge drivers neutralised, stdin closed, output buffered whole, a timeout that kills
 * git and whatever it started.
 */
export async function runGit(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<GitOutput> {
  const drivers = options.drivers ?? (await readRepositoryDrivers(cwd));
  return spawnGit(cwd, args, drivers, options);
}

const driversCache = new DriversCache();
/** Config that names other config files: a repository with any is read every time (drivers-cache.ts). */
const INCLUDE_KEYS = '^include(if)?\\.';
/** The same keys as git prints them (section names in lower case). */
const INCLUDE_KEY = new RegExp(INCLUDE_KEYS);

/**
 * The drivers a repository's config defines (local, worktree and included files: system and global config are
 * never read). Reading config runs nothing, so this one call needs no driver overrides of its own. Kept while
 * the config files are unchanged (drivers-cache.ts).
 */
export async function readRepositoryDrivers(cwd: string): Promise<RepositoryDrivers> {
  const files = configFilesOf(cwd);
  const before = files && signatureOf(files);
  const cached = before === undefined ? undefined : driversCache.get(cwd, before);
  if (cached) return cached;
  const { stdout } = await spawnGit(cwd, ['config', '-z', '--name-only', '--get-regexp', `${DRIVER_KEYS}|${INCLUDE_KEYS}`], NO_DRIVERS, {
    allowExitCodes: [1],
  });
  const drivers = parseDriverKeys(stdout);
  const includes = stdout.split('\0').some((key) => INCLUDE_KEY.test(key));
  // Only what was read from files that did not change while git read them.
  if (files && !includes && signatureOf(files) === before) driversCache.set(cwd, before, drivers);
  return drivers;
}

/** A runner bound to one folder whose drivers are read once, for an operation made of several commands. */
export interface Git {
  (args: readonly string[], options?: Omit<GitRunOptions, 'drivers'>): Promise<GitOutput>;
  readonly cwd: string;
}

export async function gitIn(cwd: string): Promise<Git> {
  const drivers = await readRepositoryDrivers(cwd);
  return Object.assign((args: readonly string[], options: Omit<GitRunOptions, 'drivers'> = {}) => spawnGit(cwd, args, drivers, options), { cwd });
}

function spawnGit(cwd: string, args: readonly string[], drivers: RepositoryDrivers, options: GitRunOptions): Promise<GitOutput> {
  const subcommand = args[0] ?? '';
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise<GitOutput>((resolve, reject) => {
    const child = spawn('git', ['--no-pager', ...args], {
      cwd,
      env: gitEnvironment(drivers, options.env, options.identity),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      // Its own process group, so a timeout kills what git started too (a checkout's filters, a merge driver).
      detached: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let bytes = 0;
    let failure: string | undefined;
    const kill = (why: string) => {
      failure ??= why;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_OUTPUT_BYTES) kill(`more than ${MAX_OUTPUT_BYTES} bytes of output`);
      else into.push(chunk);
    };
    child.stdout?.on('data', collect(stdout));
    child.stderr?.on('data', collect(stderr));
    const timer = setTimeout(() => kill(`timed out after ${timeoutMs} ms`), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new GitCommandError(subcommand, cwd, -1, error.message));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const out = Buffer.concat(stdout).toString('utf8');
      const err = Buffer.concat(stderr).toString('utf8');
      const exitCode = code ?? -1;
      if (failure !== undefined) reject(new GitCommandError(subcommand, cwd, -1, `error: ${failure}\n${err}`, out));
      else if (exitCode === 0 || options.allowExitCodes?.includes(exitCode)) resolve({ stdout: out, stderr: err, exitCode });
      else reject(new GitCommandError(subcommand, cwd, exitCode, err, out));
    });
    if (options.input !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined); // git may exit before reading it all; its exit code says why
      child.stdin.end(options.input);
    }
  });
}
