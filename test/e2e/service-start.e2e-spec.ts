import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { collectUntilExit, freePort, REPO_ROOT, spawnTs, waitForHttp } from '../fixtures/service-process';
import { waitUntil } from '../fixtures/wait-until';
import { makeTempDir } from '../fixtures/temp-dir';

/** A start-up refusal is one line on stderr naming what to fix: no Nest stack trace, no module list. */
function expectOneLineRefusal(stderr: string, message: RegExp | string): void {
  const lines = stderr.split('\n').filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^switchboard: failed to start: /);
  if (typeof message === 'string') expect(lines[0]).toContain(message);
  else expect(lines[0]).toMatch(message);
  expect(stderr).not.toMatch(/\bat .*:\d+:\d+/);
}

describe('starting the service process (src/main.ts)', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  beforeEach(() => (tmp = makeTempDir()));
  afterEach(() => tmp.cleanup());

  it('serves /health on its SQLite file, logs JSON, and shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    const file = path.join(tmp.dir, 'data', 'switchboard.db');
    const child = spawnTs('src/main.ts', [], { PORT: String(port), HOST: '127.0.0.1', SWITCHBOARD_DB: file });
    const exited = collectUntilExit(child);
    const response = await waitForHttp(`http://127.0.0.1:${port}/health`, child);
    expect(response.status).toBe(200);
    // Durable commits by default, synced and checkpointed off the event loop (issue 41).
    expect(await response.json()).toMatchObject({
      status: 'ok',
      database: { status: 'up', file, journalMode: 'wal', synchronous: 'FULL', commitSync: 'wal-sync-off-loop', walCheckpoints: { offLoop: true } },
    });
    child.kill('SIGTERM');
    const { code, stdout } = await exited;
    expect(code).toBe(0);
    expect(stdout).toContain('database closed');
    const firstLine = JSON.parse(stdout.split('\n')[0]);
    expect(firstLine).toHaveProperty('level');
    // Not a terminal: JSON lines only, no line for people.
    expect(stdout).not.toContain('Switchboard is up');
    expect(fs.existsSync(file)).toBe(true);
  }, 60_000);

  it('at a terminal (a pseudo-terminal from script(1)), says in one line where the console is and that it needs no token', async () => {
    const port = await freePort();
    const command = [process.execPath, '-r', '@swc-node/register', 'src/main.ts'].join(' ');
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SWITCHBOARD_DB: path.join(tmp.dir, 'switchboard.db'),
        SWITCHBOARD_CONSOLE_DIR: tmp.dir,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const exited = collectUntilExit(child);
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    try {
      await waitUntil(async () => output.includes('Switchboard is up'), 'the line for people', 60_000);
      const line = output.split(/\r?\n/).find((l) => l.startsWith('Switchboard is up'));
      expect(line).toBe(
        `Switchboard is up: the console is not built (run npm run build:web), API at http://127.0.0.1:${port}/api (no token needed); ` +
          `API docs http://127.0.0.1:${port}/api/docs, GraphQL IDE http://127.0.0.1:${port}/graphql`,
      );
    } finally {
      process.kill(-(child.pid as number), 'SIGTERM'); // script and the service under it
    }
    expect((await exited).code).toBe(0);
  }, 90_000);

  it.each([
    [{ PORT: 'eighty' }, /PORT must be an integer/],
    [{ SWITCHBOARD_DB_SYNCHRONOUS: 'sometimes' }, /SWITCHBOARD_DB_SYNCHRONOUS must be one of FULL, NORMAL/],
    [{ PORT: '0', LOG_LEVEL: 'loud' }, /invalid configuration: PORT must be .*; LOG_LEVEL must be one of/],
  ])(
    'refuses to start on bad configuration %p, naming the variable in one line',
    async (env, message) => {
      const child = spawnTs('src/main.ts', [], { ...env, SWITCHBOARD_DB: path.join(tmp.dir, 'x.db') });
      const { code, stderr } = await collectUntilExit(child);
      expect(code).toBe(1);
      expectOneLineRefusal(stderr, message);
      expect(fs.existsSync(path.join(tmp.dir, 'x.db'))).toBe(false);
    },
    60_000,
  );

  it('refuses to start on a file that is not a database, naming it, and keeps the file', async () => {
    const file = path.join(tmp.dir, 'switchboard.db');
    fs.writeFileSync(file, 'not sqlite at all'.repeat(100));
    const child = spawnTs('src/main.ts', [], { SWITCHBOARD_DB: file, PORT: String(await freePort()) });
    const { code, stderr } = await collectUntilExit(child);
    expect(code).toBe(1);
    expectOneLineRefusal(stderr, `Cannot use database file ${file}: it is not a SQLite database`);
    expect(fs.readFileSync(file, 'utf8')).toBe('not sqlite at all'.repeat(100));
  }, 60_000);

  it('refuses to start on a corrupt SQLite database in one line naming the file, and keeps it', async () => {
    const file = path.join(tmp.dir, 'switchboard.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL'); // as the service keeps it, so opening it changes no header byte
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX t_v ON t (v);');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    for (let i = 0; i < 2000; i++) insert.run(`value ${i} `.repeat(10));
    db.close();
    // Garbage over the pages after the schema page: the header still says SQLite, the b-trees are broken.
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(8192, 0xa5), 0, 8192, 4096 * 3);
    fs.closeSync(fd);
    const damaged = fs.readFileSync(file);

    const child = spawnTs('src/main.ts', [], { SWITCHBOARD_DB: file, PORT: String(await freePort()) });
    const { code, stderr } = await collectUntilExit(child);
    expect(code).toBe(1);
    expectOneLineRefusal(stderr, new RegExp(`Cannot use database file ${file}: it is corrupt .*restore it from a backup`));
    expect(fs.readFileSync(file).equals(damaged)).toBe(true);
  }, 60_000);

  it('refuses to start when its port is taken, in one line naming PORT and HOST', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const child = spawnTs('src/main.ts', [], { SWITCHBOARD_DB: path.join(tmp.dir, 'switchboard.db'), PORT: String(port), HOST: '127.0.0.1' });
      const { code, stderr, stdout } = await collectUntilExit(child);
      expect(code).toBe(1);
      expectOneLineRefusal(stderr, `cannot listen on 127.0.0.1:${port} (PORT=${port}, HOST=127.0.0.1): the port is already in use`);
      expect(stdout).toContain('database closed'); // it opened the database before it tried the port
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});
