import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkspaceEvents } from '../../src/workspaces/workspace.events';
import { Workspaces } from '../../src/workspaces/workspaces';
import { type TestEventStore, openTestEventStore } from '../fixtures/event-store-fixture';
import { git, makeRepository } from '../fixtures/git-repositories';
import { makeTempDir } from '../fixtures/temp-dir';
import { testConfig } from '../fixtures/test-config';

const DAY = 86_400_000;

/**
 * issue 42, item 9, on a real SQLite event store and real git: a worktree untouched past the retention is
 * removed after its last state is committed (its branch keeps it), a resume makes it again from the branch
 * with everything it had, a destroyed session's folder goes at once; each step is an event on its stream.
 */
describe('Workspaces: retention, removal and restore', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let es: TestEventStore;
  let workspaces: Workspaces;
  let repository: string;

  beforeEach(() => {
    tmp = makeTempDir('switchboard-ws-life-');
    repository = makeRepository(path.join(fs.realpathSync(tmp.dir), 'repos', 'app'), { 'README.md': '# app\n' });
    es = openTestEventStore();
    const config = testConfig(tmp.dir, {
      workspaces: { repositories: [path.dirname(repository)], dir: path.join(tmp.dir, 'worktrees'), retentionMs: 7 * DAY },
    });
    workspaces = new Workspaces(config, es.store);
  });

  afterEach(async () => {
    await workspaces.onModuleDestroy();
    es.close();
    tmp.cleanup();
  });

  const types = async (sessionId: string) => (await es.store.readStream(`workspace-${sessionId}`)).map((e) => e.type);

  it('keeps a worktree within the retention, removes it after (committing what it held), and restores it from its branch', async () => {
    const opened = await workspaces.open('s1', { repository });
    fs.writeFileSync(path.join(opened.path, 'notes.txt'), 'kept\n');

    expect(await workspaces.sweep(Date.now() + DAY)).toBe(0);
    expect(fs.existsSync(opened.path)).toBe(true);

    expect(await workspaces.sweep(Date.now() + 8 * DAY)).toBe(1);
    expect(fs.existsSync(opened.path)).toBe(false);
    // What it held was committed on its branch before the folder went; the repository's own checkout is untouched.
    expect(git(repository, 'show', 'switchboard/s1:notes.txt')).toBe('kept');
    expect(git(repository, 'status', '--porcelain')).toBe('');
    expect(await types('s1')).toEqual([WorkspaceEvents.opened, WorkspaceEvents.checkpointed, WorkspaceEvents.removed]);
    // Its changes and diff are still there to read: from its branch.
    expect((await workspaces.changes(opened)).map((c) => [c.path, c.status])).toEqual([['notes.txt', 'added']]);
    expect(await workspaces.diff(opened, 'notes.txt')).toContain('+kept');

    await workspaces.ensurePresent('s1');
    expect(fs.readFileSync(path.join(opened.path, 'notes.txt'), 'utf8')).toBe('kept\n');
    expect(git(opened.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('switchboard/s1');
    expect((await types('s1')).at(-1)).toBe(WorkspaceEvents.restored);
    // Present again: a second call changes nothing.
    await workspaces.ensurePresent('s1');
    expect((await types('s1')).filter((t) => t === WorkspaceEvents.restored)).toHaveLength(1);
  });

  it('removes a destroyed session’s folder at once, and a run started from it later finds nothing to merge into', async () => {
    const lead = await workspaces.open('lead', { repository });
    const child = await workspaces.openForChild('sub-agent-r1', 'lead');
    expect(child?.parentSessionId).toBe('lead');
    fs.writeFileSync(path.join((child as { path: string }).path, 'child.txt'), 'child\n');

    expect(await workspaces.remove('lead', 'session-destroyed')).toBe(true);
    expect(fs.existsSync(lead.path)).toBe(false);
    expect(await workspaces.remove('lead', 'session-destroyed')).toBe(false);

    const merge = await workspaces.mergeIntoParent('sub-agent-r1');
    expect(merge).toMatchObject({ outcome: 'failed', error: expect.stringContaining('was removed') });
    // The child's work is on its branch all the same.
    expect(git(repository, 'show', 'switchboard/sub-agent-r1:child.txt')).toBe('child');
  });

  it('records what a stop left uncommitted as recovered when the service starts again', async () => {
    const opened = await workspaces.open('s2', { repository });
    fs.writeFileSync(path.join(opened.path, 'cut-off.txt'), 'half\n');
    const restarted = new Workspaces(
      testConfig(tmp.dir, { workspaces: { repositories: [path.dirname(repository)], dir: path.join(tmp.dir, 'worktrees'), retentionMs: 7 * DAY } }),
      es.store,
    );
    restarted.onApplicationBootstrap();
    await restarted.onModuleDestroy();
    const { checkpoints } = await restarted.history('s2');
    expect(checkpoints).toEqual([
      expect.objectContaining({ cause: 'recovered', files: [expect.objectContaining({ path: 'cut-off.txt', status: 'added' })] }),
    ]);
  });

  it('finds the commit a fork from a model call starts from: the steps whose results the call saw, even when recorded after it started', async () => {
    const opened = await workspaces.open('s3', { repository });
    const position = async () => (await es.store.readStream('workspace-s3')).at(-1)!.globalPosition;
    fs.writeFileSync(path.join(opened.path, 'one.txt'), '1\n');
    const first = await workspaces.checkpoint('s3', { cause: 'tool', toolCallId: 'c1', modelResponseId: 'answer-1' });
    // The call that saw the first tool's result started here; the second tool's checkpoint came after.
    const forkPoint = (await position()) + 1;
    fs.writeFileSync(path.join(opened.path, 'two.txt'), '2\n');
    const second = await workspaces.checkpoint('s3', { cause: 'tool', toolCallId: 'c2', modelResponseId: 'answer-2' });

    expect(await workspaces.commitBefore('s3', forkPoint, new Set(['answer-1']))).toBe(first!.commit);
    // Answer 2 came before the call too (its checkpoint was recorded a moment after the call started).
    expect(await workspaces.commitBefore('s3', forkPoint, new Set(['answer-1', 'answer-2']))).toBe(second!.commit);
    // A call before any step: the base.
    expect(await workspaces.commitBefore('s3', forkPoint, new Set())).toBe(opened.baseCommit);
    expect(await workspaces.commitBefore('no-such-session', forkPoint, new Set())).toBeUndefined();
  });
});
