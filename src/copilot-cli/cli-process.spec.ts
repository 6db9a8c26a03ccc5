import * as fs from 'node:fs';
import { waitUntil } from '../../test/fixtures/wait-until';
import type { CopilotCliConfig } from '../config';
import { type CliCommand, cliCommand, CliProcess, type CliProcessOptions, CliRestartPolicy } from './cli-process';

const config: CopilotCliConfig = {
  path: '/opt/copilot/bin/copilot',
  extraArgs: ['--log-level', 'debug'],
  url: undefined,
  home: undefined,
  workingDirectory: '/srv/switchboard/workspace',
  requestTimeoutMs: 1000,
  provider: undefined,
  defaultModel: 'gpt-test',
  githubToken: undefined,
};

describe('cliCommand', () => {
  const installed = () => ({ command: '/usr/bin/node', args: ['/pkg/npm-loader.js'] });

  it('runs the configured binary headless over stdio, without auto login when no token is set, extra args last', () => {
    const { command, args } = cliCommand(config, [], { PATH: '/bin' }, installed);
    expect(command).toBe('/opt/copilot/bin/copilot');
    expect(args).toEqual(['--headless', '--no-auto-update', '--stdio', '--no-auto-login', '--log-level', 'debug']);
  });

  it("runs in the sessions' working directory", () => {
    expect(cliCommand(config, [], {}, installed).cwd).toBe('/srv/switchboard/workspace');
  });

  it("runs the installed package's binary when none is configured; with a token it may log in", () => {
    const { command, args, env } = cliCommand({ ...config, path: undefined, githubToken: 'ghp_x', extraArgs: [] }, [], {}, installed);
    expect(command).toBe('/usr/bin/node');
    expect(args).toEqual(['/pkg/npm-loader.js', '--headless', '--no-auto-update', '--stdio']);
    expect(env.GITHUB_TOKEN).toBe('ghp_x');
  });

  it("gives the CLI cliEnvironment()'s minimal environment: no Switchboard secrets, only passthrough names", () => {
    const { env } = cliCommand(
      config,
      ['EXTRA_*'],
      { PATH: '/bin', SWITCHBOARD_API_TOKEN: 's3cret', AWS_SECRET_ACCESS_KEY: 'k', EXTRA_ONE: '1' },
      installed,
    );
    expect(env).toEqual({ PATH: '/bin', EXTRA_ONE: '1' });
  });

  it('sets COPILOT_MODEL to the default model when a BYOK provider comes from the environment without one', () => {
    expect(cliCommand(config, [], { COPILOT_PROVIDER_BASE_URL: 'http://m' }, installed).env.COPILOT_MODEL).toBe('gpt-test');
    expect(cliCommand(config, [], { COPILOT_PROVIDER_BASE_URL: 'http://m', COPILOT_MODEL: 'mine' }, installed).env.COPILOT_MODEL).toBe('mine');
    expect(cliCommand(config, [], {}, installed).env).not.toHaveProperty('COPILOT_MODEL');
  });
});

/** A fake CLI: a node script, in the environment the test gives it. */
function nodeScript(script: string): CliCommand {
  return { command: process.execPath, args: ['-e', script], env: { PATH: process.env.PATH } };
}

/** Alive and not a zombie (the container's init may be slow to reap a reparented process). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = fs.existsSync(`/proc/${pid}/stat`) ? fs.readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/^\d+ \(.*\) Z/.test(stat);
}

describe('CliProcess', () => {
  const started: CliProcess[] = [];
  const exits: Array<[number | null, string | null]> = [];
  const options: CliProcessOptions = {
    logger: { log: () => undefined, debug: () => undefined, error: () => undefined },
    onExit: (code, signal) => exits.push([code, signal]),
  };
  const spawnScript = (script: string) => {
    const cli = CliProcess.spawn(nodeScript(script), options);
    started.push(cli);
    return cli;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((cli) => cli.stop(100)));
    exits.length = 0;
  });

  it('pipes stdin and stdout, and tells onExit with the exit code', async () => {
    const cli = spawnScript("process.stdin.once('data', (d) => { process.stdout.write('echo:' + d); process.exit(3); })");
    const output: string[] = [];
    cli.stdout.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    cli.stdin.write('hello');
    await waitUntil(() => exits.length === 1, 'the fake CLI to exit');
    expect(exits).toEqual([[3, null]]);
    expect(cli.hasExited).toBe(true);
    await waitUntil(() => output.join('') === 'echo:hello', 'the echo on stdout');
  });

  it("keeps the last 20 lines of the CLI's stderr for the logs", async () => {
    const cli = spawnScript("for (let i = 1; i <= 25; i++) process.stderr.write('line ' + i + '\\n'); process.exitCode = 1;");
    await waitUntil(() => exits.length === 1 && cli.stderrTail().endsWith('line 25'), 'the whole stderr');
    const lines = cli.stderrTail().split('\n');
    expect(lines).toHaveLength(20);
    expect(lines[0]).toBe('line 6');
  });

  it('stop() ends the CLI with SIGTERM and settles once it is gone', async () => {
    const cli = spawnScript("setInterval(() => undefined, 1000); process.stdout.write('ready');");
    await new Promise((resolve) => cli.stdout.once('data', resolve));
    await cli.stop(60_000);
    expect(cli.hasExited).toBe(true);
    expect(exits).toEqual([[null, 'SIGTERM']]);
    await expect(cli.stop()).resolves.toBeUndefined(); // already gone: settles at once
  });

  it('stop() escalates to SIGKILL for a CLI that ignores SIGTERM', async () => {
    const cli = spawnScript("process.on('SIGTERM', () => undefined); setInterval(() => undefined, 1000); process.stdout.write('ready');");
    await new Promise((resolve) => cli.stdout.once('data', resolve));
    await cli.stop(50);
    expect(exits).toEqual([[null, 'SIGKILL']]);
  });

  it('kill() ends the whole process group at once, what the CLI started included', async () => {
    // The npm loader runs the real binary as its child: that grandchild must go too.
    const cli = spawnScript(
      "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1000)'], { stdio: 'ignore' });" +
        "process.on('SIGTERM', () => undefined); process.stdout.write(String(c.pid)); setInterval(() => undefined, 1000);",
    );
    const grandchild = Number(await new Promise<string>((resolve) => cli.stdout.setEncoding('utf8').once('data', resolve)));
    expect(isAlive(grandchild)).toBe(true);
    cli.kill();
    await waitUntil(() => exits.length === 1, 'the fake CLI to be killed');
    expect(exits).toEqual([[null, 'SIGKILL']]);
    await waitUntil(() => !isAlive(grandchild), 'the grandchild to be gone');
  });
});

describe('CliRestartPolicy', () => {
  it('waits 500 ms after the first unexpected exit, doubling per attempt up to 30 s, and starts over after a start', () => {
    const policy = new CliRestartPolicy(() => 0);
    const delays = Array.from({ length: 8 }, () => policy.exited());
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    policy.started();
    expect(policy.exited()).toBe(500);
  });

  it('counts the exits of the last minute only', () => {
    let now = 1_000_000;
    const policy = new CliRestartPolicy(() => now);
    expect(policy.exitsLastMinute()).toBe(0);
    policy.exited();
    now += 30_000;
    policy.exited();
    policy.started(); // a start does not forget the exits: readiness still sees a crash loop
    expect(policy.exitsLastMinute()).toBe(2);
    now += 30_001;
    expect(policy.exitsLastMinute()).toBe(1);
    now += 30_000;
    expect(policy.exitsLastMinute()).toBe(0);
  });
});
