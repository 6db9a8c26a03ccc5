import { type DomainEvent, eventGuard, eventReader } from '../event-store';
import type { FileChange } from './git';

export type { FileChange } from './git';

/** issue 42: the events of a workspace stream, `workspace-<sessionId>` (a run's: `workspace-sub-agent-<runId>`). */
export const WorkspaceEvents = {
  opened: 'workspace.opened',
  checkpointed: 'workspace.checkpointed',
  merged: 'workspace.merged',
  removed: 'workspace.removed',
  restored: 'workspace.restored',
} as const;

/** Where a session's worktree is and what it started from: everything later reads of it need. */
export interface WorkspaceOpenedData {
  sessionId: string;
  /** The run whose thread this is; absent for a session started through the API. */
  runId?: string;
  /** The repository's top level (real path), one of SWITCHBOARD_REPOSITORIES or inside one. */
  repository: string;
  /** The ref the session asked for; absent: the repository's HEAD. A child's is its parent's. */
  ref?: string;
  /** The commit the worktree started from: a child's is a snapshot of its parent's working state. */
  baseCommit: string;
  /** `switchboard/<sessionId>` */
  branch: string;
  /** The worktree folder: the CLI session's working directory. */
  path: string;
  /** A run's thread: the session whose worktree it started from and merges back into. */
  parentSessionId?: string;
  /** `auto`: a completed run's branch is merged into its parent's worktree; `manual`: a person merges. */
  merge: 'auto' | 'manual';
}

/** A commit of what one step changed: after a tool call that changed files, or what a crash interrupted. */
export interface WorkspaceCheckpointedData {
  sessionId: string;
  runId?: string;
  commit: string;
  files: FileChange[];
  /** What changed the files: a tool call, a merge a person or the lead resolved, or recovery after a crash. */
  cause: 'tool' | 'turn-end' | 'recovered' | 'before-merge';
  toolCallId?: string;
  toolName?: string;
  /** The agent whose tool call it was: the session's (or run's) agent, or the CLI sub-agent (`task`) that made the call. */
  agentName?: string;
  /**
   * The model answer that asked for the tool, by the id the CLI names it with (`apiCallId`, the answer's
   * `chatcmpl-…`): the ledger's `responseId`, through which a read finds the model call.
   */
  modelResponseId?: string;
}

/** A child run's branch merged three-way into its parent's worktree (or not: conflicts left for the lead). */
export interface WorkspaceMergedData {
  /** The child's session (its run's thread) whose branch was merged. */
  sessionId: string;
  runId?: string;
  intoSessionId: string;
  outcome: 'merged' | 'up-to-date' | 'conflicted' | 'failed';
  /** The merge commit on the parent's branch (outcome `merged`). */
  commit?: string;
  files: FileChange[];
  /** Paths left with conflict markers in the parent's worktree (outcome `conflicted`). */
  conflicts: string[];
  /** Why a merge could not be tried (outcome `failed`). */
  error?: string;
}

/** The worktree folder removed (its last state committed first; the branch stays, so nothing is lost). */
export interface WorkspaceRemovedData {
  sessionId: string;
  path: string;
  /** `session-destroyed`: its session was deleted; `retention`: untouched for SWITCHBOARD_WORKSPACE_RETENTION. */
  reason: 'session-destroyed' | 'retention';
  /** The branch's commit when it was removed: what a restore starts from. */
  lastCommit: string;
}

/** A removed worktree made again from its branch, because its session went on (a resume). */
export interface WorkspaceRestoredData {
  sessionId: string;
  path: string;
  commit: string;
}

export type WorkspaceOpened = DomainEvent<typeof WorkspaceEvents.opened, WorkspaceOpenedData>;
export type WorkspaceCheckpointed = DomainEvent<typeof WorkspaceEvents.checkpointed, WorkspaceCheckpointedData>;
export type WorkspaceMerged = DomainEvent<typeof WorkspaceEvents.merged, WorkspaceMergedData>;
export type WorkspaceRemoved = DomainEvent<typeof WorkspaceEvents.removed, WorkspaceRemovedData>;
export type WorkspaceRestored = DomainEvent<typeof WorkspaceEvents.restored, WorkspaceRestoredData>;
export type WorkspaceEvent = WorkspaceOpened | WorkspaceCheckpointed | WorkspaceMerged | WorkspaceRemoved | WorkspaceRestored;

export const isWorkspaceEvent = eventGuard<WorkspaceEvent>(Object.values(WorkspaceEvents));
/** A workspace event as another context reads it: by its type, through these payload types. */
export const readWorkspaceEvent = eventReader<WorkspaceEvent>(Object.values(WorkspaceEvents));
