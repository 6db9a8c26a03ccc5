import * as fs from 'node:fs';
import * as path from 'node:path';
import { collectUntilExit, freePort, spawnTs, waitForHttp } from '../fixtures/service-process';
import { makeTempDir } from '../fixtures/temp-dir';


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
    expect(await response.json()).toMatchObject({ status: 'ok', database: { status: 'up', file, journalMode: 'wal' } });
    child.kill('SIGTERM');
    const { code, stdout } = await exited;
    expect(code).toBe(0);
    expect(stdout).toContain('database closed');
    const firstLine = JSON.parse(stdout.split('\n')[0]);
    expect(firstLine).toHaveProperty('level');
    expect(fs.existsSync(file)).toBe(true);
  }, 60_000);

  it.each([
    [{ PORT: 'eighty' }, /PORT must be an integer/],
    [{ SWITCHBOARD_DB_SYNCHRONOUS: 'sometimes' }, /SWITCHBOARD_DB_SYNCHRONOUS must be one of FULL, NORMAL/],
  ])('refuses to start on bad configuration %p, naming the variable', async (env, message) => {
    const child = spawnTs('src/main.ts', [], { ...env, SWITCHBOARD_DB: path.join(tmp.dir, 'x.db') });
    const { code, stderr } = await collectUntilExit(child);
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
    expect(fs.existsSync(path.join(tmp.dir, 'x.db'))).toBe(false);
  }, 60_000);

  it('refuses to start on a file that is not a database, naming it, and keeps the file', async () => {
    const file = path.join(tmp.dir, 'switchboard.db');
    fs.writeFileSync(file, 'not sqlite at all'.repeat(100));
    const child = spawnTs('src/main.ts', [], { SWITCHBOARD_DB: file, PORT: String(await freePort()) });
    const { code, stderr } = await collectUntilExit(child);
    expect(code).toBe(1);
    expect(stderr).toContain(`Cannot use database file ${file}: it is not a SQLite database`);
    expect(fs.readFileSync(file, 'utf8')).toBe('not sqlite at all'.repeat(100));
  }, 60_000);
});
