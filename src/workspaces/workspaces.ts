import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { SYSTEM_ACTOR } from '../common';
import { EventStore, handleCommand, runIdOfThread, workspaceStreamId } from '../event-store';
import {
  addWorktree,
  blameOnBranch,
  type BlamedLine,
  blameSince,
  kindOnBranch,
  changesAcross,
  changesBetween,
  changesSince,
  checkpoint as commitCheckpoint,
  diffAcross,
  diffBetween,
  diffSince,
  folderSize,
  GitCommandError,
  mergeBranch,
  removeWorktree,
  resolveCommit,
  resolveRepository,
  restoreWorktree,
  snapshotWorkingState,
  WorkspaceRequestError,
  type WorktreeOrBranch,
} from './git';
import { type WorkspaceCommand, workspaceDecider, type WorkspaceState } from './workspace.decider';
import { WorkspaceGitError, WorkspaceRefusedError, WorkspacesOffError } from './workspace.errors';
import {
  type FileChange,
  type WorkspaceCheckpointedData,
  WorkspaceEvents,
  type WorkspaceMergedData,
  type WorkspaceOpenedData,
  isWorkspaceEvent,
} from './workspace.events';

/** What a request asks for: `workspace: {repository, ref?, merge?}` on a session or a run. */
export interface WorkspaceRequest {
  repository: string;
  ref?: string;
  merge?: 'auto' | 'manual';
}

/** The workspaces' part of /health. */
export type WorkspacesUsage =
  | { enabled: false }
  | {
      enabled: true;
      dir: string;
      repositories: string[];
      retentionMs: number;
      /** Worktree folders on this machine. */
      worktrees: number;
      /** Their bytes on disk (files and links, apparent sizes). */
      bytes: number;
      /** The five largest, by session. */
      largest: Array<{ sessionId: string; bytes: number }>;
      measuredAt: string;
    };

/** A checkpoint with when it was recorded. */
export type RecordedCheckpoint = WorkspaceCheckpointedData & { recordedAt: string };

/** Why a checkpoint is taken. */
export interface CheckpointCause {
  cause: WorkspaceCheckpointedData['cause'];
  toolCallId?: string;
  toolName?: string;
  agentName?: string;
  modelResponseId?: string;
}

const SYSTEM_METADATA = { by: SYSTEM_ACTOR };

/** A file attributed line by line is sent whole, one JSON row a line: past this, its diff is the way to read it. */
export const MAX_BLAMED_BYTES = 2 * 1024 * 1024;

/**
 * issue 42: each session's (and each run's thread's) own git worktree on `switchboard/<sessionId>`. What
 * happened to it is the workspace stream's events: where it is and what it started from (`opened`), a commit
 * after each step that changed files (`checkpointed`), a child's branch merged into it (`merged`); the files
 * themselves are git's. Operations on one worktree run one at a time (a checkpoint never races a merge).
 */
@Injectable()
export class Workspaces implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(Workspaces.name);
  /** worktree path → the tail of its operations. */
  private readonly queues = new Map<string, Promise<unknown>>();
  private sweepTimer?: NodeJS.Timeout;
  private usageCache?: { at: number; usage: WorkspacesUsage; sizes: Array<{ sessionId: string; bytes: number }> };
  /**
   * `workspace.opened` never changes once recorded: kept here, so a checkpoint after each tool call reads its
   * stream once (to decide), not twice. Filled by every read of a stream that has it.
   */
  private readonly openedBySession = new Map<string, WorkspaceOpenedData>();
  /** The start-up recovery and retention pass, awaited by a stop so git is never cut off mid-commit. */
  private startupPass: Promise<void> = Promise.resolve();

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly store: EventStore,
  ) {}

  get enabled(): boolean {
    return this.config.workspaces.repositories.length > 0;
  }

  /** Checks a request without making anything: 422 naming what to fix. */
  async check(request: WorkspaceRequest): Promise<{ repository: string; baseCommit: string }> {
    if (!this.enabled) throw new WorkspacesOffError();
    try {
      const { root } = await resolveRepository(this.config.workspaces.repositories, request.repository);
      return { repository: root, baseCommit: await resolveCommit(root, request.ref) };
    } catch (error) {
      throw refusalOf(error);
    }
  }

  /** A new session's worktree from the ref it asked for: made, then recorded (`workspace.opened`). */
  async open(sessionId: string, request: WorkspaceRequest): Promise<WorkspaceOpenedData> {
    const { repository, baseCommit } = await this.check(request);
    return this.make({
      sessionId,
      ...runOf(sessionId),
      repository,
      ...(request.ref ? { ref: request.ref } : {}),
      baseCommit,
      branch: branchOf(sessionId),
      path: this.pathOf(sessionId),
      merge: request.merge ?? 'auto',
    });
  }

  /**
   * A run's thread starts from its parent's working state as it is now, uncommitted changes included (a
   * snapshot commit that leaves the parent's files, index and HEAD as they were). Undefined: the parent has
   * no workspace, so neither has the child.
   */
  async openForChild(sessionId: string, parentSessionId: string): Promise<WorkspaceOpenedData | undefined> {
    const parent = (await this.stateOf(parentSessionId)).opened;
    if (!parent) return undefined;
    const baseCommit = await this.serial(parent.path, () =>
      this.git(() => snapshotWorkingState(parent.path, `switchboard: ${parentSessionId} as ${sessionId} started`)),
    );
    return this.make({
      sessionId,
      ...runOf(sessionId),
      repository: parent.repository,
      ...(parent.ref ? { ref: parent.ref } : {}),
      baseCommit,
      branch: branchOf(sessionId),
      path: this.pathOf(sessionId),
      parentSessionId,
      merge: parent.merge,
    });
  }

  /** The session's workspace as recorded; undefined when it has none. */
  async opened(sessionId: string): Promise<WorkspaceOpenedData | undefined> {
    const known = this.openedBySession.get(sessionId);
    if (known) return known;
    return (await this.stateOf(sessionId)).opened;
  }

  /** Commits what changed since the last checkpoint and records it; undefined when nothing changed (or no workspace). */
  async checkpoint(sessionId: string, cause: CheckpointCause): Promise<WorkspaceCheckpointedData | undefined> {
    const opened = await this.opened(sessionId);
    if (!opened) return undefined;
    return this.serial(opened.path, () => this.checkpointNow(opened, cause));
  }

  /**
   * A completed run's branch merged three-way into its parent's worktree: the child's last changes and the
   * parent's are checkpointed first, so the merge is of commits and the parent's own work is kept as its own.
   * Conflicts stay in the parent's files, with markers, for the lead to resolve. Undefined: no workspace,
   * a manual merge, or already merged.
   */
  async mergeIntoParent(sessionId: string, options: { manual?: boolean } = {}): Promise<WorkspaceMergedData | undefined> {
    const state = await this.stateOf(sessionId);
    const child = state.opened;
    if (!child?.parentSessionId || state.mergedInto) return undefined;
    if (child.merge === 'manual' && !options.manual) return undefined;
    const parentState = await this.stateOf(child.parentSessionId);
    const parent = parentState.opened;
    if (!parent) return undefined;
    await this.serial(child.path, () => this.checkpointNow(child, { cause: 'before-merge' }));
    const merge = await this.serial(parent.path, async (): Promise<WorkspaceMergedData> => {
      const base = { sessionId, ...runOf(sessionId), intoSessionId: parent.sessionId };
      if (parentState.removed) {
        const error = `the workspace of ${parent.sessionId} was removed; ${child.branch} keeps this run's changes`;
        return { ...base, outcome: 'failed', files: [], conflicts: [], error };
      }
      try {
        await this.checkpointNow(parent, { cause: 'before-merge' });
        const result = await mergeBranch(parent.path, child.branch, `switchboard: merge ${child.branch} into ${parent.branch}`, {
          checkpointedJustBefore: true,
        });
        if (result.outcome === 'up-to-date') return { ...base, outcome: 'up-to-date', files: [], conflicts: [] };
        if (result.outcome === 'conflicted') return { ...base, outcome: 'conflicted', files: result.files, conflicts: result.conflicts };
        return { ...base, outcome: 'merged', commit: result.commit, files: result.files, conflicts: [] };
      } catch (error) {
        this.logger.warn({ sessionId, into: parent.sessionId, err: error }, 'merging a run’s workspace into its parent’s failed');
        return { ...base, outcome: 'failed', files: [], conflicts: [], error: (error as Error).message };
      }
    });
    const recorded = await this.decide(sessionId, { type: 'recordMerge', merge });
    // Also on the lead's stream, so the lead's history says what reached its worktree.
    if (recorded.events.length > 0) {
      await this.decide(parent.sessionId, { type: 'recordIncomingMerge', merge });
    }
    return merge;
  }

  /** What the session's worktree holds against its base: its own steps and what its children merged, uncommitted included. */
  /** What changed since the base: in the worktree as it is now, or, once the retention removed it, on its branch. */
  async changes(opened: WorkspaceOpenedData): Promise<FileChange[]> {
    if (!fs.existsSync(opened.path)) return this.git(() => changesBetween(opened.repository, opened.baseCommit, opened.branch));
    return this.git(() => changesSince(opened.path, opened.baseCommit));
  }

  async diff(opened: WorkspaceOpenedData, file?: string): Promise<string> {
    if (!fs.existsSync(opened.path)) return this.git(() => diffBetween(opened.repository, opened.baseCommit, opened.branch, file));
    return this.git(() => diffSince(opened.path, opened.baseCommit, file));
  }

  /**
   * How the files of `to` differ from those of `from` (a replay or fork against its original), each worktree
   * as it is now, uncommitted included; a removed one as its branch has it. Both of one repository.
   */
  async changesAcross(from: WorkspaceOpenedData, to: WorkspaceOpenedData): Promise<FileChange[]> {
    return this.git(() => changesAcross(to.repository, sideOf(from), sideOf(to)));
  }

  async diffAcross(from: WorkspaceOpenedData, to: WorkspaceOpenedData, file?: string): Promise<string> {
    return this.git(() => diffAcross(to.repository, sideOf(from), sideOf(to), file));
  }

  /**
   * Each line of `file` as the session's worktree has it now, with the commit that last wrote it since the
   * base (uncommitted lines say so). A worktree removed after the retention is read from its branch.
   * `missing` / `folder`: nothing to blame at that path.
   */
  async blame(opened: WorkspaceOpenedData, file: string): Promise<BlamedLine[] | 'missing' | 'folder' | 'too-large'> {
    if (fs.existsSync(opened.path)) {
      const stat = fs.lstatSync(path.join(opened.path, file), { throwIfNoEntry: false });
      if (!stat) return 'missing';
      if (stat.isDirectory()) return 'folder';
      if (stat.size > MAX_BLAMED_BYTES) return 'too-large';
      return this.git(() => blameSince(opened.path, opened.baseCommit, file));
    }
    const found = await this.git(() => kindOnBranch(opened.repository, opened.branch, file));
    if (found.kind !== 'file') return found.kind;
    if (found.bytes > MAX_BLAMED_BYTES) return 'too-large';
    return this.git(() => blameOnBranch(opened.repository, opened.baseCommit, opened.branch, file));
  }

  /** The session's checkpoints and merges, oldest first. */
  async history(sessionId: string): Promise<{ checkpoints: WorkspaceCheckpointedData[]; merges: WorkspaceMergedData[] }> {
    const checkpoints: WorkspaceCheckpointedData[] = [];
    const merges: WorkspaceMergedData[] = [];
    for (const event of await this.store.readStream(workspaceStreamId(sessionId))) {
      if (!isWorkspaceEvent(event)) continue;
      if (event.type === WorkspaceEvents.checkpointed) checkpoints.push(event.data);
      if (event.type === WorkspaceEvents.merged) merges.push(event.data);
    }
    return { checkpoints, merges };
  }

  /**
   * issue 42 item 7: the commit the session's branch was at when a model call started (at global position
   * `position`): what a fork from that call starts its worktree from. A tool's checkpoint counts when the
   * answer that asked for the tool came before the call (`answeredBefore`, the answers' ids): its result was
   * in the call's request, though its commit may be recorded a moment after the call started. Other
   * checkpoints and incoming merges count when recorded before it. Undefined: the session has no workspace.
   */
  async commitBefore(sessionId: string, position: number, answeredBefore: ReadonlySet<string>): Promise<string | undefined> {
    let commit: string | undefined;
    for (const event of await this.store.readStream(workspaceStreamId(sessionId))) {
      if (!isWorkspaceEvent(event)) continue;
      const before = event.globalPosition < position;
      if (event.type === WorkspaceEvents.opened) commit = event.data.baseCommit;
      if (event.type === WorkspaceEvents.checkpointed) {
        const asked = event.data.modelResponseId;
        if (asked ? answeredBefore.has(asked) : before) commit = event.data.commit;
      }
      if (event.type === WorkspaceEvents.merged && before && event.data.intoSessionId === sessionId && event.data.commit) commit = event.data.commit;
    }
    return commit;
  }

  /**
   * Every checkpoint of the session's worktree and of the runs merged into it, down the tree, by commit:
   * what a line's last commit was a step of. A run whose merge conflicted counts too (its commits are what
   * the lead resolved from).
   */
  async checkpointsOfTree(sessionId: string): Promise<Map<string, RecordedCheckpoint>> {
    const byCommit = new Map<string, RecordedCheckpoint>();
    const seen = new Set<string>();
    const pending = [sessionId];
    while (pending.length > 0) {
      const current = pending.shift()!;
      if (seen.has(current)) continue;
      seen.add(current);
      for (const event of await this.store.readStream(workspaceStreamId(current))) {
        if (!isWorkspaceEvent(event)) continue;
        if (event.type === WorkspaceEvents.checkpointed) byCommit.set(event.data.commit, { ...event.data, recordedAt: event.recordedAt });
        if (event.type === WorkspaceEvents.merged && event.data.intoSessionId === current) pending.push(event.data.sessionId);
      }
    }
    return byCommit;
  }

  /**
   * After a start (a crash included), what each worktree on this machine holds that no checkpoint recorded
   * (a tool cut off mid-write, a step between its end and its checkpoint) is committed as `recovered`, before
   * any resumed run adds to it; then worktrees untouched past the retention are removed. In the background:
   * the service serves meanwhile, and each worktree's queue keeps the recovery ahead of later steps.
   */
  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.startupPass = this.recoverAll().then(async () => {
      await this.sweep();
    });
    // Hourly: retention is days, a pass reads each worktree's stream once.
    this.sweepTimer = setInterval(() => void this.sweep(), 3_600_000);
    this.sweepTimer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.startupPass;
    await Promise.all([...this.queues.values()]);
  }

  /** Every worktree folder here whose session recorded one, with its state. */
  private async present(): Promise<Array<{ sessionId: string; opened: WorkspaceOpenedData; lastRecordedAt: string }>> {
    if (!fs.existsSync(this.config.workspaces.dir)) return [];
    const found: Array<{ sessionId: string; opened: WorkspaceOpenedData; lastRecordedAt: string }> = [];
    for (const entry of fs.readdirSync(this.config.workspaces.dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const { state, lastRecordedAt } = await this.read(entry.name);
      const { opened } = state;
      if (opened && lastRecordedAt && !state.removed && path.resolve(opened.path) === path.join(this.config.workspaces.dir, entry.name)) {
        found.push({ sessionId: entry.name, opened, lastRecordedAt });
      }
    }
    return found;
  }

  private async recoverAll(): Promise<void> {
    try {
      for (const { opened } of await this.present()) {
        const recovered = await this.serial(opened.path, () => this.checkpointNow(opened, { cause: 'recovered' }));
        if (recovered)
          this.logger.warn(
            { sessionId: opened.sessionId, files: recovered.files.length, commit: recovered.commit },
            'workspace changes no checkpoint recorded before the stop, recorded as recovered',
          );
      }
    } catch (error) {
      this.logger.error({ err: error }, 'could not recover the workspaces after the start');
    }
  }

  /** Removes worktrees whose last recorded step is older than the retention (their branches stay). */
  async sweep(now = Date.now()): Promise<number> {
    let removed = 0;
    try {
      for (const { sessionId, lastRecordedAt } of await this.present()) {
        if (now - new Date(lastRecordedAt).getTime() < this.config.workspaces.retentionMs) continue;
        if (await this.remove(sessionId, 'retention')) removed++;
      }
    } catch (error) {
      this.logger.error({ err: error }, 'the workspace retention pass failed');
    }
    return removed;
  }

  /**
   * The worktree folder removed after its last state is committed (the branch keeps everything, and a resume
   * makes the folder again): when its session is destroyed, or after the retention. False: nothing to remove.
   */
  async remove(sessionId: string, reason: 'session-destroyed' | 'retention'): Promise<boolean> {
    const state = await this.stateOf(sessionId);
    const opened = state.opened;
    if (!opened || state.removed) return false;
    return this.serial(opened.path, async () => {
      const last = (await this.checkpointNow(opened, { cause: 'turn-end' }))?.commit ?? state.lastCommit ?? opened.baseCommit;
      await this.git(() => removeWorktree(opened.repository, opened.path, { deleteBranch: false }));
      await this.decide(sessionId, { type: 'recordRemoval', removal: { sessionId, path: opened.path, reason, lastCommit: last } });
      this.logger.log({ sessionId, path: opened.path, reason }, 'workspace removed; its branch keeps its changes');
      return true;
    });
  }

  /** Before a session goes on (a resume): its worktree is there, made again from its branch if it was removed. */
  async ensurePresent(sessionId: string): Promise<void> {
    const state = await this.stateOf(sessionId);
    const opened = state.opened;
    if (!opened || fs.existsSync(opened.path)) return;
    await this.serial(opened.path, async () => {
      await this.git(() => restoreWorktree(opened.repository, opened.path, opened.branch));
      const commit = state.lastCommit ?? opened.baseCommit;
      await this.decide(sessionId, { type: 'recordRestore', restore: { sessionId, path: opened.path, commit } });
      this.logger.log({ sessionId, path: opened.path }, 'workspace made again from its branch');
    });
  }

  /**
   * What /health shows: whether workspaces are on, where, and the disk their worktrees use (each folder
   * walked with lstat, symlinks not followed), computed at most once a minute: a walk of big worktrees is
   * not repeated for every probe.
   */
  async usage(now = Date.now()): Promise<WorkspacesUsage> {
    if (!this.enabled) return { enabled: false };
    if (!this.usageCache || now - this.usageCache.at > 60_000) {
      const dir = this.config.workspaces.dir;
      const folders = fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()) : [];
      const sizes = await Promise.all(folders.map(async (folder) => ({ sessionId: folder.name, bytes: await folderSize(path.join(dir, folder.name)) })));
      sizes.sort((a, b) => b.bytes - a.bytes);
      this.usageCache = {
        at: now,
        sizes,
        usage: {
          enabled: true,
          dir,
          repositories: this.config.workspaces.repositories,
          retentionMs: this.config.workspaces.retentionMs,
          worktrees: sizes.length,
          bytes: sizes.reduce((sum, s) => sum + s.bytes, 0),
          largest: sizes.slice(0, 5),
          measuredAt: new Date(now).toISOString(),
        },
      };
    }
    return this.usageCache.usage;
  }

  /** Every worktree on this machine and its bytes, largest first, from the same measure as `usage` (/metrics shows each). */
  async sizes(now = Date.now()): Promise<Array<{ sessionId: string; bytes: number }>> {
    if (!this.enabled) return [];
    await this.usage(now);
    return this.usageCache?.sizes ?? [];
  }

  private async make(workspace: WorkspaceOpenedData): Promise<WorkspaceOpenedData> {
    fs.mkdirSync(this.config.workspaces.dir, { recursive: true });
    await this.git(() => addWorktree({ root: workspace.repository, path: workspace.path, branch: workspace.branch, startCommit: workspace.baseCommit }));
    await this.decide(workspace.sessionId, { type: 'open', workspace });
    this.logger.log(
      { sessionId: workspace.sessionId, repository: workspace.repository, path: workspace.path, base: workspace.baseCommit },
      'workspace opened',
    );
    return workspace;
  }

  private async checkpointNow(opened: WorkspaceOpenedData, cause: CheckpointCause): Promise<WorkspaceCheckpointedData | undefined> {
    if (!fs.existsSync(opened.path)) return undefined;
    const what = cause.toolCallId ? `after ${cause.toolName ?? 'tool'} ${cause.toolCallId}` : cause.cause;
    const committed = await this.git(() => commitCheckpoint(opened.path, `switchboard: ${opened.sessionId} ${what}`));
    if (!committed) return undefined;
    const checkpoint: WorkspaceCheckpointedData = {
      sessionId: opened.sessionId,
      ...runOf(opened.sessionId),
      commit: committed.commit,
      files: committed.files,
      cause: cause.cause,
      ...(cause.toolCallId ? { toolCallId: cause.toolCallId } : {}),
      ...(cause.toolName ? { toolName: cause.toolName } : {}),
      ...(cause.agentName ? { agentName: cause.agentName } : {}),
      ...(cause.modelResponseId ? { modelResponseId: cause.modelResponseId } : {}),
    };
    await this.decide(opened.sessionId, { type: 'checkpoint', checkpoint });
    return checkpoint;
  }

  /** A command on the session's workspace stream, recorded as Switchboard's own. */
  private decide(sessionId: string, command: WorkspaceCommand) {
    return handleCommand(this.store, workspaceDecider, workspaceStreamId(sessionId), command, { metadata: SYSTEM_METADATA });
  }

  private async stateOf(sessionId: string): Promise<WorkspaceState> {
    return (await this.read(sessionId)).state;
  }

  /** The workspace stream folded, and when its last event was recorded (what the retention counts from). */
  private async read(sessionId: string): Promise<{ state: WorkspaceState; lastRecordedAt?: string }> {
    let state = workspaceDecider.initialState();
    const events = await this.store.readStream(workspaceStreamId(sessionId));
    for (const event of events) {
      if (isWorkspaceEvent(event)) state = workspaceDecider.evolve(state, event);
    }
    if (state.opened) this.openedBySession.set(sessionId, state.opened);
    return { state, lastRecordedAt: events.at(-1)?.recordedAt };
  }

  private pathOf(sessionId: string): string {
    return path.join(this.config.workspaces.dir, sessionId);
  }

  /** One operation at a time on a worktree, in the order asked. */
  private serial<T>(worktree: string, operation: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(worktree) ?? Promise.resolve();
    const next = previous.then(operation, operation);
    const tail = next.catch(() => undefined);
    this.queues.set(worktree, tail);
    void tail.then(() => {
      if (this.queues.get(worktree) === tail) this.queues.delete(worktree);
    });
    return next;
  }

  /** git's failure as the service's: 502 with git's words, never a 500. */
  private async git<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof GitCommandError) throw new WorkspaceGitError(error.message, {});
      if (error instanceof WorkspaceRequestError) throw refusalOf(error);
      throw error;
    }
  }
}

function branchOf(sessionId: string): string {
  return `switchboard/${sessionId}`;
}

function runOf(sessionId: string): { runId?: string } {
  const runId = runIdOfThread(sessionId);
  return runId ? { runId } : {};
}

function refusalOf(error: unknown): unknown {
  if (error instanceof WorkspaceRequestError) return new WorkspaceRefusedError(error.message, { field: error.field });
  return error;
}

/** A worktree to read as it is now, or its branch once it was removed. */
function sideOf(opened: WorkspaceOpenedData): WorktreeOrBranch {
  return fs.existsSync(opened.path) ? { worktree: opened.path } : { branch: opened.branch };
}
