import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { git, makeRepository } from '../../../test/fixtures/git-repositories';
import {
  addWorktree,
  blameOnBranch,
  blameSince,
  checkpoint,
  kindOnBranch,
  mergeBranch,
  parseBlamePorcelain,
  removeWorktree,
  resolveCommit,
} from './index';

// Who last wrote each line, by the real git: the base's lines, a step's commit, uncommitted edits, a file no
// commit has yet, and a child's line through the merge into its parent.
describe('blame of a worktree since its base', () => {
  let dir: string;
  let root: string;
  let base: string;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-blame-'));
    root = makeRepository(path.join(dir, 'repo'), { 'notes.txt': 'one\ntwo\nthree\n' });
    base = await resolveCommit(root);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function worktree(name: string, from = base): Promise<string> {
    const where = path.join(dir, name);
    await addWorktree({ root, path: where, branch: `switchboard/${name}`, startCommit: from });
    return where;
  }

  it('names the checkpoint commit of a changed line, the base for the others, and uncommitted edits as such', async () => {
    const lead = await worktree('lead');
    fs.writeFileSync(path.join(lead, 'notes.txt'), 'one\nTWO\nthree\n');
    const step = await checkpoint(lead, 'step');
    fs.appendFileSync(path.join(lead, 'notes.txt'), 'four\n');

    expect(await blameSince(lead, base, 'notes.txt')).toEqual([
      { line: 1, text: 'one', origin: 'base' },
      { line: 2, text: 'TWO', origin: 'committed', commit: step!.commit },
      { line: 3, text: 'three', origin: 'base' },
      { line: 4, text: 'four', origin: 'uncommitted' },
    ]);
  });

  it('reads a file no commit has yet as uncommitted, line by line', async () => {
    const lead = await worktree('lead');
    fs.writeFileSync(path.join(lead, 'new.txt'), 'a\nb\n');
    expect(await blameSince(lead, base, 'new.txt')).toEqual([
      { line: 1, text: 'a', origin: 'uncommitted' },
      { line: 2, text: 'b', origin: 'uncommitted' },
    ]);
  });

  it('follows a merged child’s line to the child’s own commit, and reads a removed worktree from its branch', async () => {
    const lead = await worktree('lead');
    const child = await worktree('child');
    fs.writeFileSync(path.join(child, 'notes.txt'), 'one\ntwo\nTHREE\n');
    const childStep = await checkpoint(child, 'child step');
    fs.writeFileSync(path.join(lead, 'notes.txt'), 'ONE\ntwo\nthree\n');
    const leadStep = await checkpoint(lead, 'lead step');
    expect((await mergeBranch(lead, 'switchboard/child', 'merge child', { checkpointedJustBefore: true })).outcome).toBe('merged');

    const expected = [
      { line: 1, text: 'ONE', origin: 'committed', commit: leadStep!.commit },
      { line: 2, text: 'two', origin: 'base' },
      { line: 3, text: 'THREE', origin: 'committed', commit: childStep!.commit },
    ];
    expect(await blameSince(lead, base, 'notes.txt')).toEqual(expected);

    await removeWorktree(root, lead, { deleteBranch: false });
    expect(await kindOnBranch(root, 'switchboard/lead', 'notes.txt')).toEqual({ kind: 'file', bytes: 14 });
    expect(await kindOnBranch(root, 'switchboard/lead', 'nope.txt')).toEqual({ kind: 'missing' });
    expect(await blameOnBranch(root, base, 'switchboard/lead', 'notes.txt')).toEqual(expected);
    expect(git(root, 'status', '--porcelain')).toBe('');
  });
});

describe('parseBlamePorcelain', () => {
  it('reads a commit’s details once and its later lines by their header alone', () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    const porcelain = [
      `${a} 1 1 2`,
      'author T',
      'summary base',
      'boundary',
      'filename f',
      '\tfirst',
      `${a} 2 2`,
      '\tsecond',
      `${b} 3 3 1`,
      'author T',
      'summary step',
      'filename f',
      '\t\tindented with a tab',
      '',
    ].join('\n');
    expect(parseBlamePorcelain(porcelain)).toEqual([
      { line: 1, text: 'first', origin: 'base' },
      { line: 2, text: 'second', origin: 'base' },
      { line: 3, text: '\tindented with a tab', origin: 'committed', commit: b },
    ]);
  });
});
