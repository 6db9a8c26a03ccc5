import { getRest } from '../api/rest';

// issue 42: what a session's or a run's git worktree changed, as the service's REST routes answer it
// (src/workspaces/workspaces.controller.ts). GraphQL has no field for it; these are plain GETs.

export type FileStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'type-changed';

export interface FileChange {
  path: string;
  status: FileStatus;
  additions: number;
  deletions: number;
  previousPath?: string;
  binary?: boolean;
}

export type MergeOutcome = 'merged' | 'up-to-date' | 'conflicted' | 'failed';

/** A run's branch merged into its lead's worktree (or not: conflicts left there, or git failed). */
export interface WorkspaceMerge {
  sessionId: string;
  runId?: string;
  intoSessionId: string;
  outcome: MergeOutcome;
  commit?: string;
  files: FileChange[];
  conflicts: string[];
  error?: string;
}

export interface WorkspaceChanges {
  sessionId: string;
  runId?: string;
  repository: string;
  branch: string;
  baseCommit: string;
  /** `against`: the run's worktree against the worktree of `againstRunId` (a replay's or fork's original). */
  scope: 'own' | 'subtree' | 'against';
  againstRunId?: string;
  files: FileChange[];
  merges: WorkspaceMerge[];
}

export type CheckpointCause = 'tool' | 'turn-end' | 'recovered' | 'before-merge';

/** A commit after a step that changed files. */
export interface Checkpoint {
  sessionId: string;
  runId?: string;
  commit: string;
  files: FileChange[];
  cause: CheckpointCause;
  toolCallId?: string;
  toolName?: string;
  agentName?: string;
  modelCallId?: string;
  approval?: StepApproval;
}

export interface WorkspaceHistory {
  checkpoints: Checkpoint[];
  merges: WorkspaceMerge[];
}

/**
 * Whose worktree: a session's (its whole worktree) or a run's, its own steps or with its sub-runs merged in,
 * or (`against`) its worktree against another run's.
 */
export type ChangesTarget = { kind: 'session'; id: string } | { kind: 'run'; id: string; subtree: boolean; against?: string };

function base(target: ChangesTarget): string {
  return `/api/${target.kind === 'session' ? 'sessions' : 'runs'}/${encodeURIComponent(target.id)}`;
}

const query = (params: Record<string, string | undefined>): string => {
  const set = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return set.length > 0 ? `?${set.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}` : '';
};
const againstOf = (target: ChangesTarget) => (target.kind === 'run' ? target.against : undefined);

export function changesPath(target: ChangesTarget): string {
  const against = againstOf(target);
  return `${base(target)}/changes${query({ subtree: target.kind === 'run' && target.subtree && !against ? 'true' : undefined, against })}`;
}

/** The unified diff of the worktree against its base (or the run compared with): one file's, or every file's. */
export function diffPath(target: ChangesTarget, file?: string): string {
  return `${base(target)}/diff${query({ path: file, against: againstOf(target) })}`;
}

export function checkpointsPath(target: ChangesTarget): string {
  return `${base(target)}/checkpoints`;
}

/** null: it has no workspace (the service's 404). */
export function loadChanges(target: ChangesTarget): Promise<WorkspaceChanges | null> {
  return getRest<WorkspaceChanges>(changesPath(target), 'json');
}

export function loadDiff(target: ChangesTarget, file?: string): Promise<string | null> {
  return getRest(diffPath(target, file), 'text');
}

export function loadCheckpoints(target: ChangesTarget): Promise<WorkspaceHistory | null> {
  return getRest<WorkspaceHistory>(checkpointsPath(target), 'json');
}

/** A decision of a person (or a key, or the timeout) on a step's tool call. */
export interface StepApproval {
  approvalId: string;
  decision: string;
  scope: string | null;
  decidedBy: string | null;
  decider: { kind: string; id: string; name: string } | null;
  decidedAt: string | null;
}

/** The step that last wrote a line. */
export interface LineStep {
  sessionId: string;
  runId?: string;
  agentName?: string;
  cause: CheckpointCause;
  toolCallId?: string;
  toolName?: string;
  modelCallId?: string;
  approval?: StepApproval;
  commit: string;
  checkpointedAt: string;
}

export interface BlamedLine {
  line: number;
  text: string;
  origin: 'base' | 'committed' | 'uncommitted';
  commit?: string;
  step?: LineStep;
}

export interface WorkspaceBlame {
  sessionId: string;
  runId?: string;
  path: string;
  baseCommit: string;
  lines: BlamedLine[];
  steps: LineStep[];
}

/** Who last wrote each line of one file: a run's worktree, or a session's. */
export function blamePath(target: ChangesTarget, file: string): string {
  return `${base(target)}/blame?path=${encodeURIComponent(file)}`;
}

export function loadBlame(target: ChangesTarget, file: string): Promise<WorkspaceBlame | null> {
  return getRest<WorkspaceBlame>(blamePath(target, file), 'json');
}
