import type { WorkspaceMerge } from './changes-api';
import { checkpointRows, conflictedPaths, conflictsOf, diffFiles, filesSummary, lineCounts, mergesOf, mergeWords, shortCommit } from './changes';

const merged: WorkspaceMerge = {
  sessionId: 'sub-agent-r1',
  runId: 'r1',
  intoSessionId: 's1',
  outcome: 'merged',
  commit: 'abcdef0123456789',
  files: [{ path: 'alpha.txt', status: 'added', additions: 1, deletions: 0 }],
  conflicts: [],
};
const conflicted: WorkspaceMerge = {
  sessionId: 'sub-agent-r2',
  runId: 'r2',
  intoSessionId: 's1',
  outcome: 'conflicted',
  files: [{ path: 'src/shared.txt', status: 'modified', additions: 1, deletions: 1 }],
  conflicts: ['src/shared.txt'],
};

/** What git diff prints for an added file, a binary file, a rename and a modified file. */
const DIFF = [
  'diff --git a/added.txt b/added.txt',
  'new file mode 100644',
  'index 0000000..3e75765',
  '--- /dev/null',
  '+++ b/added.txt',
  '@@ -0,0 +1 @@',
  '+new',
  'diff --git a/bin.dat b/bin.dat',
  'index bdc955b..8835708 100644',
  'Binary files a/bin.dat and b/bin.dat differ',
  'diff --git a/old.txt b/new.txt',
  'similarity index 100%',
  'rename from old.txt',
  'rename to new.txt',
  'diff --git a/gone.txt b/gone.txt',
  'deleted file mode 100644',
  'index 3e75765..0000000',
  '--- a/gone.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-old',
  'diff --git a/t.txt b/t.txt',
  'index 422c2b7..7be73ce 100644',
  '--- a/t.txt',
  '+++ b/t.txt',
  '@@ -1,2 +1,3 @@',
  ' a',
  '-b',
  '+B',
  '+c',
  '',
].join('\n');

describe('the Changes view in words', () => {
  it('counts lines as +added −deleted, and says binary for a file git counts no lines of', () => {
    expect(lineCounts({ additions: 12, deletions: 3 })).toEqual({ additions: '+12', deletions: '\u22123' });
    expect(lineCounts({ additions: 0, deletions: 0, binary: true })).toBe('binary');
    expect(
      filesSummary([
        { path: 'a', status: 'added', additions: 2, deletions: 0 },
        { path: 'b', status: 'modified', additions: 1, deletions: 4 },
        { path: 'c.png', status: 'added', additions: 0, deletions: 0, binary: true },
      ]),
    ).toBe('3 files, +3 \u22124');
    expect(shortCommit('3f1c2a9e8b7d6c5f')).toBe('3f1c2a9');
  });

  it('words each merge outcome, naming the conflicted paths and git’s words for a failure', () => {
    expect(mergeWords(merged)).toBe('merged 1 file, +1 \u22120');
    expect(mergeWords({ ...merged, outcome: 'up-to-date', files: [] })).toBe('nothing to merge: already up to date');
    expect(mergeWords(conflicted)).toBe('conflicts left in src/shared.txt');
    expect(mergeWords({ ...merged, outcome: 'failed', files: [], error: 'fatal: bad object' })).toBe('not merged: fatal: bad object');
  });

  it('flags the conflicted merges with the run that conflicted and the paths', () => {
    expect(conflictsOf([merged, conflicted])).toEqual([{ runId: 'r2', sessionId: 'sub-agent-r2', paths: ['src/shared.txt'] }]);
    expect([...conflictedPaths([merged, conflicted])]).toEqual(['src/shared.txt']);
    expect(conflictsOf([merged])).toEqual([]);
  });

  it('lists a session’s merges from the histories of its runs, once per run', () => {
    const history = (merge: WorkspaceMerge) => ({ checkpoints: [], merges: [merge] });
    expect(mergesOf([], [history(merged), null, history(conflicted), history(merged)])).toEqual([merged, conflicted]);
    expect(mergesOf([merged], [undefined])).toEqual([merged]);
  });

  it('lists the checkpoints that hold files with their tool call, and leaves out empty ones', () => {
    const rows = checkpointRows([
      {
        sessionId: 'sub-agent-r1',
        runId: 'r1',
        commit: '0123456789abcdef',
        cause: 'tool',
        toolName: 'create',
        toolCallId: 'call_1',
        files: [{ path: 'alpha.txt', status: 'added', additions: 1, deletions: 0 }],
      },
      { sessionId: 'sub-agent-r1', runId: 'r1', commit: 'fedcba9876543210', cause: 'before-merge', files: [] },
    ]);
    expect(rows).toEqual([
      {
        key: '0123456789abcdef',
        commit: '0123456789abcdef',
        short: '0123456',
        cause: 'after a tool call',
        toolName: 'create',
        toolCallId: 'call_1',
        runId: 'r1',
        files: '1 file, +1 \u22120',
        paths: ['alpha.txt'],
      },
    ]);
  });

  it('splits a unified diff per file, by its path now (its old one when deleted)', () => {
    const files = diffFiles(DIFF);
    expect(files.map((f) => [f.path, f.type, f.hunks.length])).toEqual([
      ['added.txt', 'add', 1],
      ['bin.dat', 'modify', 0],
      ['new.txt', 'rename', 0],
      ['gone.txt', 'delete', 1],
      ['t.txt', 'modify', 1],
    ]);
    const added = files[0].hunks[0].changes;
    expect(added).toEqual([expect.objectContaining({ type: 'insert', content: 'new' })]);
    expect(new Set(files.map((f) => f.key)).size).toBe(files.length);
  });

  it('keeps only the files asked for, and reads an empty diff as no file', () => {
    expect(diffFiles(DIFF, new Set(['t.txt', 'gone.txt'])).map((f) => f.path)).toEqual(['gone.txt', 't.txt']);
    expect(diffFiles('')).toEqual([]);
    expect(diffFiles('\n')).toEqual([]);
  });
});
