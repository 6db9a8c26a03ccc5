import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { git, makeRepository } from '../../../test/fixtures/git-repositories';
import { configFilesOf, DriversCache, signatureOf } from './drivers-cache';
import { addWorktree, checkpoint, readRepositoryDrivers, resolveCommit } from './index';

describe('the drivers read for a worktree, kept while its config is unchanged', () => {
  let dir: string;
  let root: string;
  let worktree: string;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-drivers-'));
    root = makeRepository(path.join(dir, 'repo'), { 'a.txt': 'a\n' });
    worktree = path.join(dir, 'worktree');
    await addWorktree({ root, path: worktree, branch: 'switchboard/w', startCommit: await resolveCommit(root) });
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('sees a filter an agent adds to the repository after an earlier read, and neutralises it', async () => {
    expect(await readRepositoryDrivers(worktree)).toEqual({ filters: [], diffs: [], merges: [] });
    await checkpoint(worktree, 'nothing to commit'); // a second operation, served from the cache

    // What an agent's `bash` can do in its worktree: a smudge/clean filter for every file, written to the
    // repository's config (git writes it through a lock file and a rename).
    const marker = path.join(dir, 'filter-ran');
    git(worktree, 'config', 'filter.evil.clean', `touch ${marker}; cat`);
    fs.writeFileSync(path.join(worktree, '.gitattributes'), '* filter=evil\n');
    fs.writeFileSync(path.join(worktree, 'b.txt'), 'b\n');

    expect((await readRepositoryDrivers(worktree)).filters).toEqual(['evil']);
    expect(await checkpoint(worktree, 'after the agent')).toMatchObject({ files: expect.arrayContaining([expect.objectContaining({ path: 'b.txt' })]) });
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('sees a driver written in place with the same inode (an editor saving over the file)', async () => {
    await readRepositoryDrivers(worktree);
    const config = path.join(root, '.git', 'config');
    const inode = fs.statSync(config).ino;
    fs.appendFileSync(config, '[merge "ours"]\n\tdriver = true\n');
    expect(fs.statSync(config).ino).toBe(inode);
    expect((await readRepositoryDrivers(worktree)).merges).toEqual(['ours']);
  });

  it('reads a config that includes another file every time: the included file can change alone', async () => {
    const included = path.join(dir, 'included.config');
    fs.writeFileSync(included, '');
    git(root, 'config', 'include.path', included);
    expect((await readRepositoryDrivers(worktree)).filters).toEqual([]);
    fs.writeFileSync(included, '[filter "late"]\n\tsmudge = false\n');
    expect((await readRepositoryDrivers(worktree)).filters).toEqual(['late']);
  });

  it('finds the config files of a repository and of a linked worktree as git does', () => {
    const common = path.join(root, '.git');
    expect(configFilesOf(root)).toEqual([path.join(common, 'config'), path.join(common, 'config.worktree')]);
    expect(configFilesOf(worktree)).toEqual([
      path.join(common, 'config'),
      path.join(fs.realpathSync(common), 'worktrees', 'worktree', 'config.worktree'),
      path.join(worktree, '.git'),
    ]);
    expect(configFilesOf(path.join(worktree, 'missing'))).toBeUndefined();
  });
});

describe('DriversCache', () => {
  const drivers = { filters: ['x'], diffs: [], merges: [] };

  it('answers only for the signature it was given, and forgets the entry on any other', () => {
    const cache = new DriversCache();
    cache.set('/w', 'sig-1', drivers);
    expect(cache.get('/w', 'sig-1')).toBe(drivers);
    expect(cache.get('/w', 'sig-2')).toBeUndefined();
    expect(cache.get('/w', 'sig-1')).toBeUndefined();
  });

  it('keeps at most its bound, dropping the oldest', () => {
    const cache = new DriversCache(2);
    cache.set('/a', 's', drivers);
    cache.set('/b', 's', drivers);
    cache.set('/c', 's', drivers);
    expect(cache.get('/a', 's')).toBeUndefined();
    expect(cache.get('/c', 's')).toBe(drivers);
  });

  it('signs a missing file as missing, so its creation changes the signature', () => {
    const file = path.join(os.tmpdir(), `switchboard-signature-${process.pid}`);
    fs.rmSync(file, { force: true });
    const before = signatureOf([file]);
    fs.writeFileSync(file, '');
    expect(signatureOf([file])).not.toBe(before);
    fs.rmSync(file);
  });
});
