import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseDriverKeys } from './hardening';
import {
  addWorktree,
  changesBetween,
  changesSince,
  checkpoint,
  diffBetween,
  diffSince,
  folderSize,
  mergeBranch,
  removeWorktree,
  resolveCommit,
  resolveRepository,
  runGit,
  snapshotWorkingState,
} from './index';

const IDENTITY = { GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@t' };

/** Unhardened git (only system and global config off), as a careless caller would run it. */
function plainGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...IDENTITY } }).toString();
}

const HOOKS = [
  'pre-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-merge-commit',
  'post-merge',
  'post-checkout',
  'post-rewrite',
  'post-index-change',
  'reference-transaction',
  'pre-auto-gc',
];

/**
 * A repository set up to run things on the host: every hook, a filter (that would also upper-case what it
 * touches), a long-running filter process, diff drivers and an external diff, a merge driver, an fsmonitor,
 * signing, pager, editor, ssh and credential programs, all selected for every file by `.gitattributes`.
 * Each program leaves a marker file named after itself; no marker may ever appear.
 */
describe('a hostile repository', () => {
  let dir: string;
  let root: string;
  let markers: string;
  let base: string;
  const markersLeft = () => fs.readdirSync(markers).sort();
  const read = (file: string) => fs.readFileSync(file, 'utf8');

  beforeAll(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-git-')));
    root = path.join(dir, 'repo');
    markers = path.join(dir, 'markers');
    fs.mkdirSync(markers);
    const evil = path.join(dir, 'evil');
    fs.writeFileSync(evil, `#!/bin/sh\ntouch "${markers}/$1"\ncase "$1" in clean|smudge) tr a-z A-Z ;; esac\nexit 0\n`, { mode: 0o755 });
    // gpg.program is run as a program, not through a shell: a file of its own.
    const gpg = path.join(dir, 'gpg');
    fs.writeFileSync(gpg, `#!/bin/sh\ntouch "${markers}/gpg"\nexit 1\n`, { mode: 0o755 });

    fs.mkdirSync(root);
    plainGit(root, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(root, 'story.txt'), 'one\ntwo\nthree\nfour\nfive\n');
    fs.writeFileSync(path.join(root, 'proc.txt'), 'read through a filter process\n');
    fs.writeFileSync(path.join(root, '.gitattributes'), '* filter=evil diff=evil merge=evil\nproc.txt filter=proc\n');
    plainGit(root, 'add', '-A');
    plainGit(root, 'commit', '-q', '-m', 'initial');
    base = plainGit(root, 'rev-parse', 'HEAD').trim();

    // Armed only now, so the commit above ran none of it.
    const hooksPath = path.join(dir, 'configured-hooks');
    fs.mkdirSync(hooksPath);
    for (const hook of HOOKS) {
      for (const folder of [path.join(root, '.git', 'hooks'), hooksPath]) {
        fs.writeFileSync(path.join(folder, hook), `#!/bin/sh\ntouch "${markers}/hook-${hook}"\n`, { mode: 0o755 });
      }
    }
    fs.appendFileSync(
      path.join(root, '.git', 'config'),
      [
        '[core]',
        `  hooksPath = ${hooksPath}`,
        `  fsmonitor = ${evil} fsmonitor`,
        `  pager = ${evil} pager`,
        `  editor = ${evil} editor`,
        `  sshCommand = ${evil} ssh`,
        `  askPass = ${evil} askpass`,
        '[filter "evil"]',
        `  clean = ${evil} clean`,
        `  smudge = ${evil} smudge`,
        '  required = true',
        '[filter "proc"]',
        `  process = ${evil} filter-process`,
        '  required = true',
        '[diff]',
        `  external = ${evil} diff-external`,
        '[diff "evil"]',
        `  command = ${evil} diff-command`,
        `  textconv = ${evil} textconv`,
        '[merge "evil"]',
        '  name = evil',
        `  driver = ${evil} merge-driver %A`,
        '[commit]',
        '  gpgSign = true',
        '[gpg]',
        `  program = ${gpg}`,
        '[log]',
        '  showSignature = true',
        '[sequence]',
        `  editor = ${evil} sequence-editor`,
        '[pager]',
        `  diff = ${evil} pager-diff`,
        '[credential]',
        `  helper = !${evil} credential`,
        '[gc]',
        '  auto = 1',
        '[protocol "ext"]',
        '  allow = always',
        '[remote "origin"]',
        `  url = ext::${evil} remote`,
        '',
      ].join('\n'),
    );
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads the drivers a repository defines, by kind and name', async () => {
    const { stdout } = await runGit(root, ['config', '-z', '--name-only', '--get-regexp', '^(filter|diff|merge)\\.']);
    expect(parseDriverKeys(stdout)).toEqual({ filters: ['evil', 'proc'], diffs: ['evil'], merges: ['evil'] });
    expect(parseDriverKeys('diff.external\0merge.ff\0filter.a.b=c.clean\0merge.Mixed Case.driver\0')).toEqual({
      filters: ['a.b=c'],
      diffs: [],
      merges: ['Mixed Case'],
    });
  });

  it('runs every operation without starting anything the repository names, and the operations still work', async () => {
    const { root: resolved } = await resolveRepository([dir], root);
    expect(await resolveCommit(resolved)).toBe(base);

    // Checkout without smudge or post-checkout: the files are the committed bytes.
    const parent = path.join(dir, 'parent');
    await addWorktree({ root, path: parent, branch: 'switchboard/parent', startCommit: base });
    expect(read(path.join(parent, 'story.txt'))).toBe('one\ntwo\nthree\nfour\nfive\n');
    expect(read(path.join(parent, 'proc.txt'))).toBe('read through a filter process\n');

    // Uncommitted work handed to a child, then committed as written (no clean filter).
    fs.writeFileSync(path.join(parent, 'story.txt'), 'one\ntwo\nthree\nfour\nfive (parent)\n');
    fs.writeFileSync(path.join(parent, 'added.txt'), 'lower case stays lower case\n');
    const snapshot = await snapshotWorkingState(parent, 'child start');
    expect(plainGit(root, 'cat-file', 'blob', `${snapshot}:added.txt`)).toBe('lower case stays lower case\n');
    const child = path.join(dir, 'child');
    await addWorktree({ root, path: child, branch: 'switchboard/child', startCommit: snapshot });
    expect(read(path.join(child, 'added.txt'))).toBe('lower case stays lower case\n');

    const parentStep = await checkpoint(parent, 'parent step');
    expect(parentStep?.files.map((file) => file.path)).toEqual(['added.txt', 'story.txt']);
    expect(plainGit(root, 'cat-file', 'blob', `${parentStep?.commit}:story.txt`)).toBe('one\ntwo\nthree\nfour\nfive (parent)\n');

    // The child edits another line of the same file: the merge runs a merge driver, ours, and merges cleanly.
    fs.writeFileSync(path.join(child, 'story.txt'), 'one (child)\ntwo\nthree\nfour\nfive (parent)\n');
    fs.writeFileSync(path.join(child, 'proc.txt'), 'changed by the child\n');
    const childStep = await checkpoint(child, 'child step');
    expect(childStep?.files).toEqual([
      { path: 'proc.txt', status: 'modified', additions: 1, deletions: 1 },
      { path: 'story.txt', status: 'modified', additions: 1, deletions: 1 },
    ]);
    expect(await changesSince(child, base)).toHaveLength(3);
    expect(await diffSince(child, base, 'story.txt')).toContain('-one\n+one (child)\n');
    expect(await changesBetween(root, base, childStep!.commit)).toHaveLength(3);
    expect(await diffBetween(root, base, childStep!.commit)).toContain('+changed by the child\n');

    const merged = await mergeBranch(parent, 'switchboard/child', 'merge the child');
    expect(merged).toMatchObject({ outcome: 'merged' });
    expect(read(path.join(parent, 'story.txt'))).toBe('one (child)\ntwo\nthree\nfour\nfive (parent)\n');
    expect(read(path.join(parent, 'proc.txt'))).toBe('changed by the child\n');

    // Both edit the same line: a conflict with markers, through the same stand-in driver.
    fs.writeFileSync(path.join(parent, 'story.txt'), 'one (parent again)\ntwo\nthree\nfour\nfive (parent)\n');
    await checkpoint(parent, 'parent again');
    fs.writeFileSync(path.join(child, 'story.txt'), 'one (child again)\ntwo\nthree\nfour\nfive (parent)\n');
    await checkpoint(child, 'child again');
    const conflicted = await mergeBranch(parent, 'switchboard/child', 'merge again');
    expect(conflicted).toMatchObject({ outcome: 'conflicted', conflicts: ['story.txt'] });
    expect(read(path.join(parent, 'story.txt'))).toBe(
      '<<<<<<< HEAD\none (parent again)\n=======\none (child again)\n>>>>>>> incoming\ntwo\nthree\nfour\nfive (parent)\n',
    );
    fs.writeFileSync(path.join(parent, 'story.txt'), 'one (resolved)\ntwo\nthree\nfour\nfive (parent)\n');
    const concluded = await checkpoint(parent, 'resolved');
    expect(plainGit(parent, 'log', '-1', '--format=%P').trim().split(' ')).toHaveLength(2);
    expect(plainGit(root, 'cat-file', 'blob', `${concluded?.commit}:story.txt`)).toBe('one (resolved)\ntwo\nthree\nfour\nfive (parent)\n');

    expect(await folderSize(parent)).toBeGreaterThan(0);
    await removeWorktree(root, child, { deleteBranch: true });
    await removeWorktree(root, parent, { deleteBranch: true });

    expect(markersLeft()).toEqual([]);
  });

  it('is armed: the same steps through plain git start its programs (so the test above can fail)', () => {
    const attempt = (cwd: string, ...args: string[]) => {
      try {
        execFileSync('git', args, {
          cwd,
          stdio: 'ignore',
          env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...IDENTITY },
        });
      } catch {
        // The filter process speaks no protocol, so git gives up on it: what counts is what it started.
      }
    };
    attempt(root, 'worktree', 'add', '-q', '-b', 'plain-1', path.join(dir, 'plain-1'), base);
    expect(markersLeft()).toEqual(expect.arrayContaining(['filter-process', 'fsmonitor', 'smudge']));
    // Without the filter process, which stops git before the rest.
    const noProcess = ['-c', 'filter.proc.process=', '-c', 'filter.proc.required=false'];
    attempt(root, ...noProcess, 'worktree', 'add', '-q', '-b', 'plain-2', path.join(dir, 'plain-2'), base);
    // The source repository itself last: nothing runs after this test.
    fs.writeFileSync(path.join(root, 'story.txt'), 'changed\n');
    attempt(root, ...noProcess, 'diff');
    attempt(root, ...noProcess, 'commit', '-q', '-a', '-m', 'plain');
    expect(markersLeft()).toEqual(
      expect.arrayContaining(['clean', 'diff-command', 'gpg', 'hook-post-checkout', 'hook-pre-commit', 'hook-reference-transaction']),
    );
  });
});
