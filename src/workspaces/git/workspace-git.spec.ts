import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  addWorktree,
  changesBetween,
  changesSince,
  checkpoint,
  diffBetween,
  diffSince,
  folderSize,
  GitCommandError,
  mergeBranch,
  removeWorktree,
  resolveCommit,
  resolveRepository,
  snapshotWorkingState,
  WorkspaceRequestError,
} from './index';

/** Plain git for setting up and inspecting, outside the module under test (no hooks: these repositories have none anyway). */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
    cwd,
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  }).toString();
}

function write(root: string, file: string, text: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

const read = (root: string, file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** What must not change in the source repository: its branch, HEAD, index bytes, status and files. */
function sourceState(root: string) {
  return {
    branch: git(root, 'symbolic-ref', 'HEAD'),
    head: git(root, 'rev-parse', 'HEAD'),
    index: createHash('sha256')
      .update(fs.readFileSync(path.join(root, '.git', 'index')))
      .digest('hex'),
    status: git(root, 'status', '--porcelain', '--untracked-files=all'),
    files: fs
      .readdirSync(root)
      .filter((name) => name !== '.git')
      .sort()
      .map((name) => [name, fs.lstatSync(path.join(root, name)).isFile() ? read(root, name) : 'dir']),
  };
}

describe('the workspaces git layer', () => {
  let dir: string;
  let root: string;
  let base: string;
  let before: ReturnType<typeof sourceState>;
  let count = 0;
  /** A fresh worktree of the source repository at `start` (default: its first commit). */
  const worktree = async (start = base) => {
    const where = path.join(dir, `wt-${++count}`);
    await addWorktree({ root, path: where, branch: `switchboard/t${count}`, startCommit: start });
    return { path: where, branch: `switchboard/t${count}` };
  };

  beforeAll(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-git-')));
    root = path.join(dir, 'repo');
    fs.mkdirSync(root);
    git(root, 'init', '-q', '-b', 'main');
    write(root, 'story.txt', 'one\ntwo\nthree\nfour\nfive\n');
    write(root, 'src/app.ts', 'export const app = 1;\n');
    write(root, 'old-name.txt', 'a file that will be renamed, long enough for rename detection\n');
    write(root, 'doomed.txt', 'to be deleted\n');
    write(root, '.gitignore', '*.log\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'initial');
    base = git(root, 'rev-parse', 'HEAD').trim();
    // The operator's own uncommitted work in the source repository, which nothing may touch.
    write(root, 'story.txt', 'one\ntwo\nthree\nfour\nfive\noperator edit\n');
    write(root, 'operator-notes.txt', 'untracked, the operator’s\n');
    before = sourceState(root);
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  describe('resolveRepository', () => {
    it('accepts an allowed root and a repository inside one, as real paths', async () => {
      expect(await resolveRepository([root], root)).toEqual({ root });
      expect(await resolveRepository([dir], `${dir}/./repo/`)).toEqual({ root });
    });

    it('refuses a repository outside the allowed roots, saying which are', async () => {
      const other = fs.mkdtempSync(path.join(dir, 'allowed-'));
      await expect(resolveRepository([other, '/nowhere'], root)).rejects.toThrow(
        new WorkspaceRequestError('workspace.repository', `workspace.repository ${root} is not in SWITCHBOARD_REPOSITORIES (allowed: ${other}, /nowhere)`),
      );
    });

    it('resolves `..` and symlinks before comparing, so neither leads out of an allowed root', async () => {
      const allowed = path.join(dir, 'allowed-root');
      fs.mkdirSync(allowed);
      fs.symlinkSync(root, path.join(allowed, 'link-to-repo'));
      await expect(resolveRepository([allowed], path.join(allowed, 'link-to-repo'))).rejects.toThrow(/is not in SWITCHBOARD_REPOSITORIES/);
      await expect(resolveRepository([allowed], `${allowed}/../repo`)).rejects.toThrow(/is not in SWITCHBOARD_REPOSITORIES/);
      // A symlinked allowed root is compared by its real path too.
      fs.symlinkSync(dir, path.join(os.tmpdir(), path.basename(dir) + '-alias'));
      try {
        expect(await resolveRepository([path.join(os.tmpdir(), path.basename(dir) + '-alias')], root)).toEqual({ root });
      } finally {
        fs.unlinkSync(path.join(os.tmpdir(), path.basename(dir) + '-alias'));
      }
    });

    it('refuses what is missing, not a repository, not the top level or bare', async () => {
      const refusal = (requested: string) =>
        resolveRepository([dir], requested).then(
          () => new Error('accepted'),
          (error: WorkspaceRequestError) => error,
        );
      const missing = await refusal(path.join(dir, 'missing'));
      expect(missing).toBeInstanceOf(WorkspaceRequestError);
      expect(missing).toMatchObject({ field: 'workspace.repository', message: expect.stringContaining('does not exist') });
      fs.mkdirSync(path.join(dir, 'plain'));
      expect((await refusal(path.join(dir, 'plain'))).message).toMatch(/plain is not a git repository/);
      expect((await refusal(path.join(root, 'src'))).message).toBe(
        `workspace.repository ${root}/src is inside the repository ${root}: give its top level`,
      );
      git(dir, 'init', '-q', '--bare', 'bare.git');
      expect((await refusal(path.join(dir, 'bare.git'))).message).toMatch(/bare repository/);
    });
  });

  describe('resolveCommit', () => {
    it('gives the full sha of HEAD or of a ref', async () => {
      expect(await resolveCommit(root)).toBe(base);
      expect(await resolveCommit(root, 'main')).toBe(base);
      expect(await resolveCommit(root, base.slice(0, 8))).toBe(base);
    });

    it('refuses an unknown ref, an option-like ref and a repository with no commit, on workspace.ref', async () => {
      await expect(resolveCommit(root, 'no-such-branch')).rejects.toMatchObject({
        field: 'workspace.ref',
        message: `workspace.ref no-such-branch is not a commit in ${root}: give a branch, tag or commit it has`,
      });
      await expect(resolveCommit(root, '--output=/tmp/x')).rejects.toBeInstanceOf(WorkspaceRequestError);
      const empty = path.join(dir, 'empty');
      git(dir, 'init', '-q', 'empty');
      await expect(resolveCommit(empty)).rejects.toMatchObject({ field: 'workspace.ref', message: expect.stringContaining('has no commit yet') });
    });
  });

  describe('addWorktree', () => {
    it('checks the start commit out on a new branch', async () => {
      const wt = await worktree();
      expect(git(wt.path, 'symbolic-ref', 'HEAD').trim()).toBe(`refs/heads/${wt.branch}`);
      expect(git(wt.path, 'rev-parse', 'HEAD').trim()).toBe(base);
      expect(read(wt.path, 'story.txt')).toBe('one\ntwo\nthree\nfour\nfive\n');
      expect(git(wt.path, 'status', '--porcelain')).toBe('');
    });

    it('fails clearly when the path or the branch exists', async () => {
      const wt = await worktree();
      await expect(addWorktree({ root, path: wt.path, branch: 'switchboard/other', startCommit: base })).rejects.toThrow(
        `cannot make a worktree at ${wt.path}: it already exists`,
      );
      const failure = await addWorktree({ root, path: path.join(dir, 'fresh'), branch: wt.branch, startCommit: base }).then(
        () => new GitCommandError('none', root, 0, 'accepted'),
        (error: GitCommandError) => error,
      );
      expect(failure).toBeInstanceOf(GitCommandError);
      expect(failure.message).toBe(`git worktree failed in ${root}: fatal: a branch named '${wt.branch}' already exists`);
      expect(failure.exitCode).toBeGreaterThan(0);
    });
  });

  describe('snapshotWorkingState', () => {
    it('commits the working state on top of HEAD without touching HEAD, index or files, and a child starts from it', async () => {
      const parent = await worktree();
      write(parent.path, 'story.txt', 'one\ntwo (parent, uncommitted)\nthree\nfour\nfive\n');
      write(parent.path, 'notes/new.txt', 'untracked in the parent\n');
      write(parent.path, 'debug.log', 'ignored\n');
      fs.rmSync(path.join(parent.path, 'doomed.txt'));
      git(parent.path, 'add', 'story.txt'); // one change staged, the others not
      const status = git(parent.path, 'status', '--porcelain', '--untracked-files=all');
      const index = fs.readFileSync(git(parent.path, 'rev-parse', '--git-path', 'index').trim());

      const snapshot = await snapshotWorkingState(parent.path, 'snapshot for a child');

      expect(git(parent.path, 'rev-parse', 'HEAD').trim()).toBe(base);
      expect(git(parent.path, 'status', '--porcelain', '--untracked-files=all')).toBe(status);
      expect(fs.readFileSync(git(parent.path, 'rev-parse', '--git-path', 'index').trim()).equals(index)).toBe(true);
      expect(git(root, 'rev-parse', `${snapshot}^`).trim()).toBe(base);
      expect(git(root, 'log', '-1', '--format=%an <%ae> %s', snapshot).trim()).toBe('Switchboard <switchboard@localhost> snapshot for a child');

      const child = await worktree(snapshot);
      expect(read(child.path, 'story.txt')).toBe('one\ntwo (parent, uncommitted)\nthree\nfour\nfive\n');
      expect(read(child.path, 'notes/new.txt')).toBe('untracked in the parent\n');
      expect(fs.existsSync(path.join(child.path, 'doomed.txt'))).toBe(false);
      expect(fs.existsSync(path.join(child.path, 'debug.log'))).toBe(false);
    });

    it('is HEAD itself when nothing differs from it', async () => {
      const wt = await worktree();
      write(wt.path, 'ignored.log', 'ignored files do not count\n');
      expect(await snapshotWorkingState(wt.path, 'nothing')).toBe(base);
    });
  });

  describe('checkpoint', () => {
    it('commits everything on the branch with added, modified, deleted and renamed files, and nothing when nothing changed', async () => {
      const wt = await worktree();
      expect(await checkpoint(wt.path, 'nothing yet')).toBeUndefined();
      write(wt.path, 'story.txt', 'one\ntwo\n3\nfour\nfive\nsix\n');
      write(wt.path, 'src/added.ts', 'a\nb\n');
      write(wt.path, 'image.bin', Buffer.from([0, 1, 2, 3, 0, 255]));
      fs.rmSync(path.join(wt.path, 'doomed.txt'));
      fs.renameSync(path.join(wt.path, 'old-name.txt'), path.join(wt.path, 'new-name.txt'));

      const result = await checkpoint(wt.path, 'after edit_file call-1', { identity: { name: 'Lead', email: 'lead@example.test' } });

      expect(result?.files).toEqual([
        { path: 'doomed.txt', status: 'deleted', additions: 0, deletions: 1 },
        { path: 'image.bin', status: 'added', additions: 0, deletions: 0, binary: true },
        { path: 'new-name.txt', status: 'renamed', previousPath: 'old-name.txt', additions: 0, deletions: 0 },
        { path: 'src/added.ts', status: 'added', additions: 2, deletions: 0 },
        { path: 'story.txt', status: 'modified', additions: 2, deletions: 1 },
      ]);
      expect(git(wt.path, 'rev-parse', 'HEAD').trim()).toBe(result?.commit);
      expect(git(wt.path, 'rev-parse', `refs/heads/${wt.branch}`).trim()).toBe(result?.commit);
      expect(git(wt.path, 'log', '-1', '--format=%P|%an|%cn|%s').trim()).toBe(`${base}|Lead|Lead|after edit_file call-1`);
      expect(git(wt.path, 'status', '--porcelain')).toBe('');
      expect(await checkpoint(wt.path, 'again')).toBeUndefined();
    });

    it('records a symlink as a link and reads nothing through it, even one that leads out of the worktree', async () => {
      const wt = await worktree();
      const secret = path.join(dir, 'secret.txt');
      fs.writeFileSync(secret, 'outside the worktree\n');
      fs.symlinkSync(secret, path.join(wt.path, 'escape'));
      const result = await checkpoint(wt.path, 'a link');
      expect(result?.files).toEqual([{ path: 'escape', status: 'added', additions: 1, deletions: 0 }]);
      expect(git(wt.path, 'cat-file', '-p', 'HEAD:escape')).toBe(secret);
      const diff = await diffSince(wt.path, base);
      expect(diff).toContain(`new file mode 120000`);
      expect(diff).toContain(`+${secret}`);
      expect(diff).not.toContain('outside the worktree');
    });
  });

  describe('mergeBranch', () => {
    it('merges a child branch that adds, edits and deletes files as a merge commit', async () => {
      const parent = await worktree();
      write(parent.path, 'story.txt', 'one (parent)\ntwo\nthree\nfour\nfive\n');
      await checkpoint(parent.path, 'parent step');
      const child = await worktree(await snapshotWorkingState(parent.path, 'child start'));
      write(child.path, 'story.txt', 'one (parent)\ntwo\nthree\nfour\nfive (child)\n');
      write(child.path, 'src/child.ts', 'export const child = true;\n');
      fs.rmSync(path.join(child.path, 'doomed.txt'));
      await checkpoint(child.path, 'child step');
      const parentHead = git(parent.path, 'rev-parse', 'HEAD').trim();

      const result = await mergeBranch(parent.path, child.branch, `merge ${child.branch}`);

      expect(result).toEqual({
        outcome: 'merged',
        commit: git(parent.path, 'rev-parse', 'HEAD').trim(),
        files: [
          { path: 'doomed.txt', status: 'deleted', additions: 0, deletions: 1 },
          { path: 'src/child.ts', status: 'added', additions: 1, deletions: 0 },
          { path: 'story.txt', status: 'modified', additions: 1, deletions: 1 },
        ],
      });
      expect(git(parent.path, 'log', '-1', '--format=%P %s').trim()).toBe(
        `${parentHead} ${git(root, 'rev-parse', child.branch).trim()} merge ${child.branch}`,
      );
      expect(read(parent.path, 'story.txt')).toBe('one (parent)\ntwo\nthree\nfour\nfive (child)\n');
      expect(await mergeBranch(parent.path, child.branch, 'again')).toEqual({ outcome: 'up-to-date' });
      // The same when the caller vouches for the worktree (no checks of its own before the merge).
      const head = git(parent.path, 'rev-parse', 'HEAD').trim();
      expect(await mergeBranch(parent.path, child.branch, 'again', { checkpointedJustBefore: true })).toEqual({ outcome: 'up-to-date' });
      expect(git(parent.path, 'rev-parse', 'HEAD').trim()).toBe(head);
      // git's own refusal then says what is wrong.
      await expect(mergeBranch(parent.path, 'no-such-branch', 'x', { checkpointedJustBefore: true })).rejects.toThrow(/not something we can merge/);
    });

    it('leaves conflicts in the files with markers, lists them, and the next checkpoint concludes the merge', async () => {
      const parent = await worktree();
      const child = await worktree();
      write(parent.path, 'story.txt', 'one\nTWO from the parent\nthree\nfour\nfive\n');
      await checkpoint(parent.path, 'parent edits line 2');
      write(child.path, 'story.txt', 'one\ntwo from the child\nthree\nfour\nfive\n');
      write(child.path, 'child-only.txt', 'no conflict here\n');
      await checkpoint(child.path, 'child edits line 2');
      const parentHead = git(parent.path, 'rev-parse', 'HEAD').trim();

      const result = await mergeBranch(parent.path, child.branch, 'merge the child');

      expect(result).toEqual({
        outcome: 'conflicted',
        conflicts: ['story.txt'],
        files: [
          { path: 'child-only.txt', status: 'added', additions: 1, deletions: 0 },
          { path: 'story.txt', status: 'modified', additions: 4, deletions: 0 },
        ],
      });
      expect(read(parent.path, 'story.txt')).toBe(
        `one\n<<<<<<< HEAD\nTWO from the parent\n=======\ntwo from the child\n>>>>>>> ${child.branch}\nthree\nfour\nfive\n`,
      );
      expect(git(parent.path, 'rev-parse', 'HEAD').trim()).toBe(parentHead); // not aborted, not committed
      expect(git(parent.path, 'rev-parse', '--verify', 'MERGE_HEAD').trim()).toBe(git(root, 'rev-parse', child.branch).trim());
      await expect(mergeBranch(parent.path, child.branch, 'twice')).rejects.toThrow(/uncommitted changes \(story.txt\)|already in progress/);

      write(parent.path, 'story.txt', 'one\ntwo, resolved by the lead\nthree\nfour\nfive\n');
      const resolved = await checkpoint(parent.path, 'lead resolved');
      expect(git(parent.path, 'log', '-1', '--format=%P').trim()).toBe(`${parentHead} ${git(root, 'rev-parse', child.branch).trim()}`);
      expect(resolved?.files).toEqual([
        { path: 'child-only.txt', status: 'added', additions: 1, deletions: 0 },
        { path: 'story.txt', status: 'modified', additions: 1, deletions: 1 },
      ]);
      expect(git(parent.path, 'status', '--porcelain')).toBe('');
      expect(fs.existsSync(git(parent.path, 'rev-parse', '--git-path', 'MERGE_HEAD').trim())).toBe(false);
    });

    it('refuses a worktree with uncommitted changes and an unknown branch, changing nothing', async () => {
      const parent = await worktree();
      const child = await worktree();
      write(child.path, 'x.txt', 'x\n');
      await checkpoint(child.path, 'x');
      write(parent.path, 'dirty.txt', 'not checkpointed\n');
      await expect(mergeBranch(parent.path, child.branch, 'm')).rejects.toThrow(
        `cannot merge ${child.branch} into ${parent.path}: it has uncommitted changes (dirty.txt): checkpoint it first`,
      );
      await expect(mergeBranch(parent.path, 'switchboard/none', 'm')).rejects.toThrow(/is not a branch or commit/);
      expect(git(parent.path, 'rev-parse', 'HEAD').trim()).toBe(base);
      expect(fs.existsSync(path.join(parent.path, 'x.txt'))).toBe(false);
    });
  });

  describe('changes and diffs', () => {
    it('lists commits plus uncommitted and untracked work since the base, and diffs one file or all', async () => {
      const wt = await worktree();
      write(wt.path, 'src/app.ts', 'export const app = 2;\n');
      const committed = await checkpoint(wt.path, 'step');
      write(wt.path, 'story.txt', 'one\ntwo\nthree\nfour\nfive\nsix\n');
      write(wt.path, 'untracked.txt', 'new\n');
      const head = git(wt.path, 'rev-parse', 'HEAD').trim();

      expect(await changesSince(wt.path, base)).toEqual([
        { path: 'src/app.ts', status: 'modified', additions: 1, deletions: 1 },
        { path: 'story.txt', status: 'modified', additions: 1, deletions: 0 },
        { path: 'untracked.txt', status: 'added', additions: 1, deletions: 0 },
      ]);
      const one = await diffSince(wt.path, base, 'story.txt');
      expect(one.replace(/^index .*\n/m, '')).toBe(
        'diff --git a/story.txt b/story.txt\n--- a/story.txt\n+++ b/story.txt\n@@ -3,3 +3,4 @@ two\n three\n four\n five\n+six\n',
      );
      expect(await diffSince(wt.path, base)).toContain('+export const app = 2;');
      // Reading changes did not commit or stage anything.
      expect(git(wt.path, 'rev-parse', 'HEAD').trim()).toBe(head);
      expect(git(wt.path, 'status', '--porcelain')).toBe(' M story.txt\n?? untracked.txt\n');

      expect(await changesBetween(root, base, committed!.commit)).toEqual([{ path: 'src/app.ts', status: 'modified', additions: 1, deletions: 1 }]);
      expect(await diffBetween(root, base, committed!.commit, 'src/app.ts')).toContain('-export const app = 1;\n+export const app = 2;\n');
      expect(await diffBetween(root, base, committed!.commit, 'story.txt')).toBe('');
    });

    it('shows a binary file as one', async () => {
      const wt = await worktree();
      write(wt.path, 'blob.bin', Buffer.from([0, 0, 7, 0]));
      expect(await diffSince(wt.path, base)).toContain('Binary files /dev/null and b/blob.bin differ');
    });
  });

  it('removeWorktree removes the folder and the branch, and prunes one already gone', async () => {
    const kept = await worktree();
    const gone = await worktree();
    write(kept.path, 'uncommitted.txt', 'forced away\n');
    await removeWorktree(root, kept.path, { deleteBranch: true });
    expect(fs.existsSync(kept.path)).toBe(false);
    expect(git(root, 'branch', '--list', kept.branch)).toBe('');

    fs.rmSync(gone.path, { recursive: true, force: true });
    await removeWorktree(root, gone.path, { deleteBranch: false });
    expect(git(root, 'worktree', 'list', '--porcelain')).not.toContain(gone.path);
    expect(git(root, 'branch', '--list', gone.branch).trim()).toBe(gone.branch);
  });

  it('folderSize counts file bytes and never follows a symlink', async () => {
    const folder = path.join(dir, 'sized');
    write(folder, 'a/b/c.txt', 'x'.repeat(1000));
    write(folder, 'd.txt', 'y'.repeat(24));
    fs.symlinkSync(root, path.join(folder, 'a', 'link-to-repo'));
    const linkBytes = fs.lstatSync(path.join(folder, 'a', 'link-to-repo')).size;
    expect(await folderSize(folder)).toBe(1024 + linkBytes);
    expect(await folderSize(path.join(dir, 'missing'))).toBe(0);
  });

  it('left the source repository’s branch, HEAD, index, status and files as they were', () => {
    expect(sourceState(root)).toEqual(before);
  });
});
