import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENVIRONMENT_VARIABLES } from './switchboard-config';

const ROOT = path.resolve(__dirname, '../..');

/** The `environment:` keys of the one service in docker-compose.yml (a map of `KEY: value` lines). */
function composeEnvironment(): string[] {
  const lines = fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8').split('\n');
  const start = lines.findIndex((line) => /^ {4}environment:\s*$/.test(line));
  expect(start).toBeGreaterThan(0);
  const keys: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^ {6}#/.test(line) || line.trim() === '') continue;
    const entry = /^ {6}([A-Z][A-Z0-9_]*):/.exec(line);
    if (!entry) break;
    keys.push(entry[1]);
  }
  return keys;
}

describe('deployment files', () => {
  it('docker-compose.yml passes every variable the service reads', () => {
    const passed = new Set(composeEnvironment());
    expect(ENVIRONMENT_VARIABLES.filter((name) => !passed.has(name))).toEqual([]);
    expect(passed.size).toBe(composeEnvironment().length); // each once
  });

  it("README's configuration table documents every variable the service reads", () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const documented = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]));
    expect(ENVIRONMENT_VARIABLES.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('.dockerignore keeps host installs, builds, data and history out of the build context', () => {
    const ignored = fs
      .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['node_modules', 'dist', 'data', 'coverage', '.git', '*.db', 'test']) expect(ignored).toContain(entry);
    // What the Dockerfile copies must stay in it.
    for (const kept of ['src', 'migrations', 'bin', 'package.json', 'package-lock.json', 'nest-cli.json', 'tsconfig.json']) {
      expect(ignored).not.toContain(kept);
    }
  });
});
