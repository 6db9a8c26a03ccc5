import { Injectable } from '@nestjs/common';
import { InvalidInputError } from '../../common';
import { runThreadId } from '../../event-store';
import { NoWorkspaceError } from '../workspace.errors';
import type { FileChange, WorkspaceCheckpointedData, WorkspaceMergedData, WorkspaceOpenedData } from '../workspace.events';
import { referenceOf, type StepFacts, StepAttributions } from '../step-attribution';
import { Workspaces } from '../workspaces';

/** What a workspace's changes answer: where it is, what it started from, and the files. */
export interface WorkspaceChanges {
  sessionId: string;
  runId?: string;
  repository: string;
  branch: string;
  baseCommit: string;
  /**
   * `own`: the files this session's (or run's) own steps changed; `subtree`: its worktree against its base,
   * merged children included; `against`: its worktree against the worktree of the run `againstRunId`.
   */
  scope: 'own' | 'subtree' | 'against';
  againstRunId?: string;
  files: FileChange[];
  merges: WorkspaceMergedData[];
}

/** A checkpoint as the reads show it: what the other contexts know of its step added. */
export type AttributedCheckpoint = WorkspaceCheckpointedData & StepFacts;

export interface WorkspaceHistory {
  checkpoints: AttributedCheckpoint[];
  merges: WorkspaceMergedData[];
}

/** Which workspace a read is of: a session's, or a run's (its thread's). */
export type WorkspaceOwner = { session: string } | { run: string };

/**
 * The read side of workspaces, one for REST and GraphQL: a session's changes are its worktree against its
 * base; a run's are its own steps, or (subtree) its worktree, which holds what its children merged into it.
 */
@Injectable()
export class WorkspaceChangesQuery {
  constructor(
    private readonly workspaces: Workspaces,
    private readonly attributions: StepAttributions,
  ) {}

  /** `against`: a run whose files to compare with instead of the base (a replay's or a fork's original). */
  async changes(owner: WorkspaceOwner, subtree = 'session' in owner, against?: string): Promise<WorkspaceChanges> {
    const opened = await this.openedOf(owner);
    const { checkpoints, merges } = await this.workspaces.history(opened.sessionId);
    const other = against === undefined ? undefined : await this.comparedWith(opened, against);
    const files = other ? await this.workspaces.changesAcross(other, opened) : subtree ? await this.workspaces.changes(opened) : ownFiles(checkpoints);
    return {
      sessionId: opened.sessionId,
      ...(opened.runId ? { runId: opened.runId } : {}),
      repository: opened.repository,
      branch: opened.branch,
      baseCommit: opened.baseCommit,
      scope: other ? 'against' : subtree ? 'subtree' : 'own',
      ...(against !== undefined ? { againstRunId: against } : {}),
      files,
      merges,
    };
  }

  async diff(owner: WorkspaceOwner, file?: string, against?: string): Promise<string> {
    const opened = await this.openedOf(owner);
    const path = pathFilter(file);
    if (against === undefined) return this.workspaces.diff(opened, path);
    return this.workspaces.diffAcross(await this.comparedWith(opened, against), opened, path);
  }

  /** The workspace of the run `against`: 404 without one, 400 when it is of another repository. */
  private async comparedWith(opened: WorkspaceOpenedData, against: unknown): Promise<WorkspaceOpenedData> {
    if (typeof against !== 'string' || against === '') throw new InvalidInputError('against must be one run id', { against: JSON.stringify(against) });
    const other = await this.openedOf({ run: against });
    if (other.repository !== opened.repository) {
      throw new InvalidInputError(`run ${against} works in ${other.repository}, not in ${opened.repository}: only runs of one repository compare`, {
        against,
      });
    }
    return other;
  }

  /** Checkpoints with the model call that asked for each step's tool and who approved the call, when known. */
  async history(owner: WorkspaceOwner): Promise<WorkspaceHistory> {
    const opened = await this.openedOf(owner);
    const { checkpoints, merges } = await this.workspaces.history(opened.sessionId);
    const facts = await this.attributions.of(checkpoints.map(referenceOf));
    return { checkpoints: checkpoints.map((checkpoint, i) => ({ ...checkpoint, ...facts[i] })), merges };
  }

  private openedOf(owner: WorkspaceOwner): Promise<WorkspaceOpenedData> {
    return openedOf(this.workspaces, owner);
  }
}

/** The workspace a read is of; 404 when the session or run has none. */
export async function openedOf(workspaces: Workspaces, owner: WorkspaceOwner): Promise<WorkspaceOpenedData> {
  const [sessionId, what] = 'session' in owner ? [owner.session, `Session ${owner.session}`] : [runThreadId(owner.run), `Run ${owner.run}`];
  const opened = await workspaces.opened(sessionId);
  if (!opened) throw new NoWorkspaceError(what);
  return opened;
}

/** The files of a run's own checkpoints, one row per path: the last status, the lines summed. */
export function ownFiles(checkpoints: readonly WorkspaceCheckpointedData[]): FileChange[] {
  const byPath = new Map<string, FileChange>();
  for (const checkpoint of checkpoints) {
    for (const file of checkpoint.files) {
      const seen = byPath.get(file.path);
      byPath.set(
        file.path,
        seen
          ? {
              ...file,
              // Added then edited is still added; added then deleted is gone, and says deleted.
              status: seen.status === 'added' && file.status !== 'deleted' ? 'added' : file.status,
              additions: seen.additions + file.additions,
              deletions: seen.deletions + file.deletions,
            }
          : { ...file },
      );
    }
  }
  return [...byPath.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/** A repository-relative path: never absolute, never climbing out (git would refuse it too, less clearly). */
export function pathFilter(file: unknown): string | undefined {
  if (file === undefined || file === '') return undefined;
  // `?path=a&path=b` arrives as an array (and `?path[x]=` as an object): one file, once.
  if (typeof file !== 'string') throw new InvalidInputError('path must be given once, as one file like src/index.ts', { path: JSON.stringify(file) });
  if (file.startsWith('/') || file.split(/[\\/]/).includes('..') || file.length > 4096) {
    throw new InvalidInputError(`path must be a path inside the repository, like src/index.ts (got "${file}")`, { path: file });
  }
  return file;
}

/** `?subtree=` as REST sends it. */
export function subtreeFlag(value: unknown): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new InvalidInputError(`subtree must be true or false (got ${JSON.stringify(value)})`, { subtree: JSON.stringify(value) });
}
