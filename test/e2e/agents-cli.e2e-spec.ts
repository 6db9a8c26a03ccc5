import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { collectUntilExit, type Finished, REPO_ROOT } from '../fixtures/service-process';
import { makeTempDir } from '../fixtures/temp-dir';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const TIMEOUT = 60_000;

/** The maintenance commands as real child processes, the way `npm run agents:*` starts them (bin/maintenance.js, from the sources). */
function runCli(command: 'import' | 'export', args: string[], db: string): Promise<Finished> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'maintenance.js'), `agents:${command}`, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, SWITCHBOARD_DB: db },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collectUntilExit(child, TIMEOUT - 5_000);
}

function writeFolder(dir: string, files: Record<string, unknown>): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, name), typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
  return dir;
}

function readFolder(dir: string): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .sort()
      .map((name) => [name, fs.readFileSync(path.join(dir, name), 'utf8')]),
  );
}

/** Everything the import could have touched, read straight from the SQLite file. */
function snapshot(db: string) {
  const connection = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return {
      events: connection.prepare('SELECT global_position, stream_id, stream_position, type, data FROM events ORDER BY global_position').all(),
      streams: connection.prepare('SELECT stream_id, version FROM streams ORDER BY stream_id').all(),
      agents: connection.prepare('SELECT * FROM agents ORDER BY id').all(),
    };
  } finally {
    connection.close();
  }
}

function agent(id: string, overrides: Json = {}): Json {
  return {
    id,
    name: `Agent ${id}`,
    description: `${id} does one thing well`,
    system_message: { mode: 'replace', content: `You are ${id}.` },
    tools: { custom: [], builtin: ['grep'], excluded_builtin: [] },
    ...overrides,
  };
}

async function http(running: RunningApp, method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${running.baseUrl}${urlPath}`, {
    method,
    headers: body === undefined && method !== 'POST' ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('agents:import and agents:export maintenance commands', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let db: string;
  beforeEach(() => {
    tmp = makeTempDir('switchboard-agents-cli-');
    db = path.join(tmp.dir, 'switchboard.db'); // where startTestApp(_, tmp.dir) keeps it too
  });
  afterEach(() => tmp.cleanup());

  it('are the npm scripts agents:import and agents:export (sources here, dist/ in the image: npm-start.e2e-spec)', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(scripts['agents:import']).toBe('node bin/maintenance.js agents:import');
    expect(scripts['agents:export']).toBe('node bin/maintenance.js agents:export');
  });

  it(
    'exports the library to <id>.json files on disk, the same text as the API export',
    async () => {
      const running = await startTestApp({}, tmp.dir);
      let apiFiles: Array<{ name: string; content: string }>;
      try {
        expect((await http(running, 'POST', '/api/agents', agent('code-reviewer'))).status).toBe(201);
        expect((await http(running, 'POST', '/api/agents', agent('engineering-lead', { sub_agents: ['code-reviewer'], icon: '👨‍💻' }))).status).toBe(201);
        apiFiles = (await http(running, 'GET', '/api/agents/export')).body.files;
      } finally {
        await running.stop();
      }
      const appDb = running.config.database.file;
      const out = path.join(tmp.dir, 'exported', 'agents'); // does not exist yet

      const { code, stdout, stderr } = await runCli('export', [out], appDb);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toContain(`exported 2 agents from ${appDb} to ${out}`);
      expect(readFolder(out)).toEqual(Object.fromEntries(apiFiles.map((f) => [f.name, f.content])));
      const lead = JSON.parse(fs.readFileSync(path.join(out, 'engineering-lead.json'), 'utf8'));
      expect(lead).toMatchObject({ id: 'engineering-lead', icon: '👨‍💻', sub_agents: ['code-reviewer'] });

      // Exporting again over the folder writes the same bytes (diff-friendly), and warns about strangers.
      fs.writeFileSync(path.join(out, 'stranger.json'), '{}\n');
      const again = await runCli('export', [out], appDb);
      expect(again.code).toBe(0);
      expect(again.stderr).toBe(`agents:export: ${path.join(out, 'stranger.json')} is not an agent of this library; left as it is\n`);
      expect(readFolder(out)).toEqual({ ...Object.fromEntries(apiFiles.map((f) => [f.name, f.content])), 'stranger.json': '{}\n' });
    },
    TIMEOUT,
  );

  it(
    'imports a good folder of agents that reference each other, and reports a re-import as unchanged',
    async () => {
      const folder = writeFolder(path.join(tmp.dir, 'team'), {
        'lead.json': agent('engineering-lead', { sub_agents: ['code-reviewer', 'test-writer'] }),
        'reviewer.json': { ...agent('ignored'), id: undefined, name: 'Code Reviewer' },
        'tester.json': agent('test-writer'),
        'README.md': 'not an agent file, not read',
      });
      fs.mkdirSync(path.join(folder, 'drafts'));
      fs.writeFileSync(path.join(folder, 'drafts', 'draft.json'), '{ not even json');

      const first = await runCli('import', [folder], db);
      expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
      expect(first.stdout).toContain(`imported 3 agent files from ${folder} into ${db}: 3 created, 0 updated, 0 unchanged`);
      // In the folder's order (lead.json, reviewer.json, tester.json).
      expect(first.stdout).toMatch(/\n {2}created engineering-lead\n {2}created code-reviewer\n {2}created test-writer\n$/);

      const stored = snapshot(db);
      expect(stored.agents.map((a: Json) => a.id)).toEqual(['code-reviewer', 'engineering-lead', 'test-writer']);
      expect(stored.events.map((e: Json) => `${e.stream_id} ${e.type}`).sort()).toEqual([
        'agent-code-reviewer agent.created',
        'agent-engineering-lead agent.created',
        'agent-test-writer agent.created',
      ]);

      const second = await runCli('import', [folder], db);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain('0 created, 0 updated, 3 unchanged');
      expect(snapshot(db)).toEqual(stored);

      // The service sees what was imported, with working references.
      const running = await startTestApp({}, tmp.dir);
      try {
        expect(running.config.database.file).toBe(db);
        const lead = await http(running, 'GET', '/api/agents/engineering-lead');
        expect(lead).toMatchObject({ status: 200, body: { sub_agents: ['code-reviewer', 'test-writer'], sub_agent_problems: [] } });
        expect((await http(running, 'GET', '/api/agents/code-reviewer')).body).toMatchObject({ name: 'Code Reviewer', composable: true });
      } finally {
        await running.stop();
      }
    },
    TIMEOUT,
  );

  it(
    'refuses a broken folder with exit 1, one file:line: message per problem, and leaves the database as it was',
    async () => {
      const good = writeFolder(path.join(tmp.dir, 'good'), { 'helper.json': agent('helper') });
      expect((await runCli('import', [good], db)).code).toBe(0);
      const before = snapshot(db);
      const dbBytes = fs.readFileSync(db);

      const broken = writeFolder(path.join(tmp.dir, 'broken'), {
        'a-new.json': agent('a-new'),
        'broken.json': '{\n  "id": "broken",\n  "name": "Broken",\n  "description": oops,\n  "icon": ""\n}\n',
        'helper.json': agent('helper', { icon: 'changed' }),
        'team.json': agent('team', { sub_agents: ['helper', 'ghost'] }),
      });
      const ghostLine =
        fs
          .readFileSync(path.join(broken, 'team.json'), 'utf8')
          .split('\n')
          .findIndex((l) => l.includes('"ghost"')) + 1;

      const { code, stdout, stderr } = await runCli('import', [broken], db);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr.split('\n')).toEqual([
        `${path.join(broken, 'broken.json')}:4: invalid JSON: Unexpected token 'o' (column 18)`,
        `${path.join(broken, 'team.json')}:${ghostLine}: sub_agents: no agent with id ghost exists; create it first or remove it from the list`,
        `agents:import: nothing was imported from ${broken} (2 problems)`,
        '',
      ]);
      expect(snapshot(db)).toEqual(before);
      // Not even the unchanged-looking parts were rewritten: the main file is byte for byte the same.
      expect(fs.readFileSync(db).equals(dbBytes)).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'exports a folder that imports back into an empty library, then exports the same again',
    async () => {
      const seed = writeFolder(path.join(tmp.dir, 'seed'), {
        'a.json': agent('alpha', { sub_agents: ['beta'], mcp_servers: ['github'], model: 'claude-sonnet-4' }),
        'b.json': agent('beta'),
      });
      expect((await runCli('import', [seed], db)).code).toBe(0);
      const out = path.join(tmp.dir, 'out');
      expect((await runCli('export', [out], db)).code).toBe(0);
      expect(Object.keys(readFolder(out))).toEqual(['alpha.json', 'beta.json']);

      const otherDb = path.join(tmp.dir, 'other', 'switchboard.db');
      const imported = await runCli('import', [out], otherDb);
      expect(imported.code).toBe(0);
      expect(imported.stdout).toContain('2 created, 0 updated, 0 unchanged');
      const out2 = path.join(tmp.dir, 'out2');
      expect((await runCli('export', [out2], otherDb)).code).toBe(0);
      const noTimes = (files: Record<string, string>) =>
        Object.fromEntries(Object.entries(files).map(([n, c]) => [n, c.replace(/"(created|updated)_at": "[^"]*"/g, '"$1_at": "T"')]));
      expect(noTimes(readFolder(out2))).toEqual(noTimes(readFolder(out)));

      // And into the library it came from: nothing to do.
      const back = await runCli('import', [out], db);
      expect(back.code).toBe(0);
      expect(back.stdout).toContain('0 created, 0 updated, 2 unchanged');
    },
    TIMEOUT,
  );

  it(
    'imports into the database of a running service, which serves the agents at once',
    async () => {
      const running = await startTestApp({}, tmp.dir);
      try {
        expect((await http(running, 'POST', '/api/agents', agent('existing'))).status).toBe(201);
        const folder = writeFolder(path.join(tmp.dir, 'live'), {
          'existing.json': agent('existing', { description: 'changed by the import' }),
          'newcomer.json': agent('newcomer', { sub_agents: ['existing'] }),
        });
        const { code, stdout } = await runCli('import', [folder], running.config.database.file);
        expect(code).toBe(0);
        expect(stdout).toContain('1 created, 1 updated, 0 unchanged');
        expect((await http(running, 'GET', '/api/agents/existing')).body).toMatchObject({ description: 'changed by the import', version: 2 });
        expect((await http(running, 'GET', '/api/agents/newcomer')).body).toMatchObject({ sub_agents: ['existing'], sub_agent_problems: [] });
        // The service keeps writing on top of what the other process appended.
        const update = await http(running, 'PUT', '/api/agents/existing', agent('existing', { icon: 'x', description: 'changed by the import' }));
        expect(update).toMatchObject({ status: 200, body: { version: 3 } });
        const events = (await http(running, 'GET', '/api/streams/agent-existing/events')).body.events;
        expect(events.map((e: Json) => [e.type, e.metadata.actor])).toEqual([
          ['agent.created', undefined],
          ['agent.updated', 'cli:agents-import'],
          ['agent.updated', undefined],
        ]);
      } finally {
        await running.stop();
      }
    },
    TIMEOUT,
  );

  it.each([
    ['import', [], /agents:import: which folder\?\nusage: npm run agents:import -- <folder>/],
    ['import', ['a', 'b'], /agents:import: give exactly one folder/],
    ['import', ['--force', 'x'], /agents:import: unknown option --force/],
    ['import', ['<missing>'], /agents:import: .*missing does not exist/],
    ['import', ['<empty>'], /agents:import: .*empty has no \*\.json agent files/],
    ['import', ['<file>'], /agents:import: .*file\.json is not a folder/],
    ['export', [], /agents:export: which folder\?\nusage: npm run agents:export -- <folder>/],
    ['export', ['<file>'], /agents:export: .*file\.json is not a folder/],
    ['export', ['--all', 'x'], /agents:export: unknown option --all/],
  ] as const)(
    '%s %p is a usage error: exit 2, usage printed, no database created',
    async (command, args, message) => {
      fs.mkdirSync(path.join(tmp.dir, 'empty'));
      fs.writeFileSync(path.join(tmp.dir, 'file.json'), `${JSON.stringify(agent('file'))}\n`);
      const placeholders: Record<string, string> = { '<missing>': 'missing', '<empty>': 'empty', '<file>': 'file.json' };
      const resolved = args.map((a) => (placeholders[a] ? path.join(tmp.dir, placeholders[a]) : a));
      const { code, stdout, stderr } = await runCli(command, resolved, db);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
      expect(stderr).toContain('Exit codes: 0');
      expect(fs.existsSync(db)).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'fails with exit 1 naming the file when SWITCHBOARD_DB is not a database, and leaves it alone',
    async () => {
      fs.writeFileSync(db, 'not sqlite at all'.repeat(100));
      const folder = writeFolder(path.join(tmp.dir, 'in'), { 'a.json': agent('a') });
      for (const [command, arg] of [
        ['import', folder],
        ['export', path.join(tmp.dir, 'out')],
      ] as const) {
        const { code, stderr } = await runCli(command, [arg], db);
        expect(code).toBe(1);
        expect(stderr).toContain(`agents:${command}: `);
        expect(stderr).toContain(db);
      }
      expect(fs.readFileSync(db, 'utf8')).toBe('not sqlite at all'.repeat(100));
      expect(fs.existsSync(path.join(tmp.dir, 'out'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'prints its usage on --help with exit 0',
    async () => {
      for (const command of ['import', 'export'] as const) {
        const { code, stdout } = await runCli(command, ['--help'], db);
        expect(code).toBe(0);
        expect(stdout).toContain(`usage: npm run agents:${command} -- <folder>`);
      }
      expect(fs.existsSync(db)).toBe(false);
    },
    TIMEOUT,
  );
});
