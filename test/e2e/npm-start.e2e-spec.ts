import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hasExited, type ProcessInfo, processTree } from '../fixtures/process-tree';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { collectUntilExit, type Finished, freePort, REPO_ROOT, waitForHttp } from '../fixtures/service-process';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';

const BUILD_AND_START_MS = 300_000;

/**
 * What the service needs to run sessions offline, set the way the README says (environment only,
 * no COPILOT_MODEL): its own folder, the scripted model as provider.
 */
function serviceEnv(dir: string, port: number, model: ScriptedModelServer): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SWITCHBOARD_DB: path.join(dir, 'data', 'switchboard.db'),
    COPILOT_CLI_HOME: path.join(dir, 'copilot-home'),
    ...model.providerEnv(),
    LOG_LEVEL: 'info',
  };
}

async function createSession(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(response.status).toBe(201);
  return ((await response.json()) as { sessionId: string }).sessionId;
}

async function cliPid(baseUrl: string): Promise<number> {
  const { copilotCli } = (await (await fetch(`${baseUrl}/health`)).json()) as { copilotCli: { running: boolean; pid?: number } };
  expect(copilotCli.running).toBe(true);
  return copilotCli.pid!;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<Finished> {
  return collectUntilExit(spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }), timeoutMs);
}

/** What `npm start` runs before the service: builds what changed since the last build. */
const buildChanged = () => run(process.execPath, ['scripts/build-changed.mjs'], REPO_ROOT, {}, BUILD_AND_START_MS);

/**
 * The README's start command (`npm start`: build, then the service), the service as a process of its
 * own (`node dist/main.js`, as the image runs it) and the compiled maintenance commands. The build
 * runs once, in beforeAll, as part of `npm start`.
 */
describe('npm start and the compiled service', () => {
  const model = new ScriptedModelServer();
  let tmp: ReturnType<typeof makeTempDir>;
  let npm: ChildProcess;
  let npmExit: Promise<Finished>;
  let baseUrl: string;
  const started: ProcessInfo[] = [];

  beforeAll(async () => {
    await model.start();
    model.setScript([{ name: 'answer', who: 'parent', answer: { text: 'OK' } }]);
    tmp = makeTempDir('switchboard-npm-start-');
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    npm = spawn('npm', ['start'], { cwd: REPO_ROOT, env: serviceEnv(tmp.dir, port, model), stdio: ['ignore', 'pipe', 'pipe'] });
    npmExit = collectUntilExit(npm, BUILD_AND_START_MS + 60_000);
    npmExit.catch(() => undefined); // awaited by the test; a failed beforeAll must not leave it unhandled
    await waitForHttp(`${baseUrl}/health`, npm, BUILD_AND_START_MS);
  }, BUILD_AND_START_MS + 10_000);

  afterAll(async () => {
    // Whatever a failed test left running, children before parents.
    const leftovers = [...started, ...(npm?.pid ? processTree(npm.pid) : [])].reverse();
    for (const p of leftovers) if (!hasExited(p.pid)) process.kill(p.pid, 'SIGKILL');
    await model.stop();
    tmp?.cleanup();
  });

  it('runs the service as npm’s own child, and SIGTERM to npm stops everything it started, gracefully', async () => {
    const sessionId = await createSession(baseUrl); // spawns the Copilot CLI
    const cli = await cliPid(baseUrl);

    started.push(...processTree(npm.pid!));
    const service = started.find((p) => p.cmdline.endsWith('dist/main.js'));
    // No shell between npm and the service: npm forwards SIGTERM to its child, and a shell would not pass it on.
    expect(service).toMatchObject({ ppid: npm.pid, cmdline: 'node dist/main.js' });
    expect(started.map((p) => p.pid)).toContain(cli);

    // A client following the session's events: the service ends the stream itself when it stops,
    // instead of holding the HTTP drain open until the connection is cut.
    const events = await fetch(`${baseUrl}/api/sessions/${sessionId}/events`, { headers: { accept: 'text/event-stream' } });
    expect(events.status).toBe(200);
    const streamEnd = (async () => {
      const reader = events.body!.getReader();
      try {
        while (!(await reader.read()).done);
        return 'ended by the service';
      } catch (error) {
        return `cut: ${(error as Error).message}`;
      }
    })();

    npm.kill('SIGTERM');
    expect(await streamEnd).toBe('ended by the service');
    const { code, signal, stdout } = await npmExit;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    // npm start built what had changed first (scripts/build-changed.mjs), each part saying what it did.
    expect(stdout).toMatch(/^build: service (is up to date|changed|not built yet)/m);
    expect(stdout).toMatch(/^build: console (is up to date|changed|not built yet)/m);
    expect(stdout).toMatch(/"signal":"SIGTERM","msg":"shutting down"/);
    expect(stdout).toContain('"msg":"database closed"');
    await waitUntil(
      () => started.every((p) => hasExited(p.pid)),
      `every process of the tree to exit: ${started.map((p) => `${p.pid} ${p.cmdline}`).join(', ')}`,
      15_000,
    );
    await expect(fetch(`${baseUrl}/health`)).rejects.toThrow();
  }, 60_000);

  // issue 39: a restart is live in seconds. npm start above built whatever had changed (everything on a
  // fresh clone; nothing in CI, whose build tier ran the same script first); a second start builds nothing,
  // and a changed console file rebuilds the console alone.
  it(
    'builds only what changed: nothing the second time, the console alone after a console file changed',
    async () => {
      const again = await buildChanged();
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('build: service is up to date (dist/ was built from these sources), skipped');
      expect(again.stdout).toContain('build: console is up to date (web/dist/ was built from these sources), skipped');
      expect(again.stdout).not.toContain('building');

      const styles = path.join(REPO_ROOT, 'web', 'src', 'styles.css');
      const webDist = path.join(REPO_ROOT, 'web', 'dist');
      const stamp = path.join(webDist, '.inputs.sha256');
      const original = fs.readFileSync(styles, 'utf8');
      const builtFrom = fs.readFileSync(stamp, 'utf8');
      // The bundle built from the sources as they are, put back after the probe instead of a third build.
      const keptBundle = path.join(tmp.dir, 'web-dist-before-probe');
      fs.cpSync(webDist, keptBundle, { recursive: true });
      try {
        fs.writeFileSync(styles, `${original}\n.npm-start-spec-probe { color: red; }\n`);
        const changed = await buildChanged();
        expect(changed.code).toBe(0);
        expect(changed.stdout).toContain('build: service is up to date');
        expect(changed.stdout).toContain('build: console changed, building web/dist/');
        // Built from the changed file: its rule is in the console's stylesheet, and the stamp is the new inputs'.
        const assets = path.join(REPO_ROOT, 'web', 'dist', 'assets');
        const css = fs.readdirSync(assets).filter((f) => f.endsWith('.css'));
        expect(css.some((f) => fs.readFileSync(path.join(assets, f), 'utf8').includes('.npm-start-spec-probe'))).toBe(true);
        expect(fs.readFileSync(stamp, 'utf8')).not.toBe(builtFrom);
      } finally {
        fs.writeFileSync(styles, original);
        fs.rmSync(webDist, { recursive: true, force: true });
        fs.renameSync(keptBundle, webDist);
      }
      // The file is back as it was (written again, so newer than the bundle): the stamp is of the content, not
      // the clock, so the bundle built from that content is up to date, and nothing is built.
      const restored = await buildChanged();
      expect(restored.code).toBe(0);
      expect(restored.stdout).toContain('build: console is up to date');
      expect(restored.stdout).not.toContain('building');
      expect(fs.readFileSync(stamp, 'utf8')).toBe(builtFrom);
    },
    2 * BUILD_AND_START_MS,
  );

  it('takes its CLI with it when it is killed outright (kill -9)', async () => {
    const port = await freePort();
    const dir = path.join(tmp.dir, 'killed');
    fs.mkdirSync(dir);
    const service = spawn(process.execPath, ['dist/main.js'], { cwd: REPO_ROOT, env: serviceEnv(dir, port, model), stdio: ['ignore', 'pipe', 'pipe'] });
    const exit = collectUntilExit(service, 60_000);
    started.push({ pid: service.pid!, ppid: process.pid, state: 'R', cmdline: 'node dist/main.js' });
    await waitForHttp(`http://127.0.0.1:${port}/health`, service, 30_000);
    await createSession(`http://127.0.0.1:${port}`);
    const cli = await cliPid(`http://127.0.0.1:${port}`);
    const tree = processTree(service.pid!);
    started.push(...tree);
    expect(tree.map((p) => p.pid)).toContain(cli);

    service.kill('SIGKILL');
    expect((await exit).signal).toBe('SIGKILL');
    // Its stdin closes with the parent: the CLI ends, though it runs in a process group of its own.
    await waitUntil(() => tree.every((p) => hasExited(p.pid)), 'the CLI to exit after its parent died', 15_000);
  }, 60_000);

  it('runs the maintenance commands from dist/ in the image’s layout (no sources, no TypeScript loader)', async () => {
    // What the Dockerfile copies: package.json, bin/, dist/, migrations/, node_modules/.
    const image = path.join(tmp.dir, 'image');
    fs.mkdirSync(path.join(image, 'bin'), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(image, 'package.json'));
    fs.copyFileSync(path.join(REPO_ROOT, 'bin', 'maintenance.js'), path.join(image, 'bin', 'maintenance.js'));
    for (const folder of ['dist', 'migrations', 'node_modules']) fs.symlinkSync(path.join(REPO_ROOT, folder), path.join(image, folder));
    const env = { SWITCHBOARD_DB: path.join(tmp.dir, 'maintenance', 'switchboard.db') };
    const agents = path.join(tmp.dir, 'agents');
    fs.mkdirSync(agents);
    for (const id of ['lead', 'helper']) {
      const agent = { id, name: id, description: `${id} agent`, system_message: { mode: 'replace', content: `You are ${id}.` } };
      fs.writeFileSync(path.join(agents, `${id}.json`), JSON.stringify({ ...agent, ...(id === 'lead' ? { sub_agents: ['helper'] } : {}) }));
    }

    const imported = await run('npm', ['run', 'agents:import', '--', agents], image, env);
    expect({ code: imported.code, stderr: imported.stderr.replace(/^npm warn .*\n/gm, '') }).toEqual({ code: 0, stderr: '' });
    expect(imported.stdout).toContain(`imported 2 agent files from ${agents} into ${env.SWITCHBOARD_DB}: 2 created`);

    const out = path.join(tmp.dir, 'exported');
    const exported = await run(process.execPath, ['dist/cli/agents-export.cli.js', out], image, env);
    expect(exported.code).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual(['helper.json', 'lead.json']);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'lead.json'), 'utf8'))).toMatchObject({ id: 'lead', sub_agents: ['helper'] });

    const rebuilt = await run('npm', ['run', 'projections:rebuild', '--', '--all'], image, env);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toMatch(/rebuilt agents: 2 events/);
  }, 120_000);
});
