import { Controller, Get, Header, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DocumentedAnswers, InvalidInputError } from '../common';
import { runThreadId } from '../event-store';
import { NoWorkspaceError } from './workspace.errors';
import type { FileChange, WorkspaceCheckpointedData, WorkspaceMergedData, WorkspaceOpenedData } from './workspace.events';
import { Workspaces } from './workspaces';
import { WORKSPACES_ANSWERS } from './workspaces.api-answers';

/** What a workspace's changes answer: where it is, what it started from, and the files. */
export interface WorkspaceChanges {
  sessionId: string;
  runId?: string;
  repository: string;
  branch: string;
  baseCommit: string;
  /** `own`: the files this session's (or run's) own steps changed; `subtree`: its worktree against its base, merged children included. */
  scope: 'own' | 'subtree';
  files: FileChange[];
  merges: WorkspaceMergedData[];
}

/**
 * issue 42: what each session and run changed in its git worktree. A run is read through its thread
 * (`sub-agent-<runId>`); its worktree holds what its children merged into it, so its subtree is its worktree.
 */
@ApiTags('workspaces')
@DocumentedAnswers(WORKSPACES_ANSWERS)
@Controller('api')
export class WorkspacesController {
  constructor(private readonly workspaces: Workspaces) {}

  @Get('sessions/:id/changes')
  @ApiOperation({
    summary: 'The files the session’s worktree changed against its base, merged runs and uncommitted changes included. 404 without a workspace',
  })
  async sessionChanges(@Param('id') id: string): Promise<WorkspaceChanges> {
    const opened = await this.openedOf(id, `Session ${id}`);
    return this.changesOf(opened, 'subtree');
  }

  @Get('sessions/:id/diff')
  @Header('content-type', 'text/x-diff; charset=utf-8')
  @ApiOperation({ summary: 'The session’s worktree against its base as a unified diff (`?path=` one file). 404 without a workspace' })
  async sessionDiff(@Param('id') id: string, @Query('path') file?: string): Promise<string> {
    return this.workspaces.diff(await this.openedOf(id, `Session ${id}`), pathFilter(file));
  }

  @Get('sessions/:id/checkpoints')
  @ApiOperation({ summary: 'The session’s checkpoints (a commit after each step that changed files) and merges, oldest first. 404 without a workspace' })
  async sessionCheckpoints(@Param('id') id: string): Promise<{ checkpoints: WorkspaceCheckpointedData[]; merges: WorkspaceMergedData[] }> {
    await this.openedOf(id, `Session ${id}`);
    return this.workspaces.history(id);
  }

  @Get('runs/:id/changes')
  @ApiOperation({
    summary:
      'The files the run changed: its own steps, or with `?subtree=true` its worktree against its base (its children merged into it). 404 without a workspace',
  })
  async runChanges(@Param('id') id: string, @Query('subtree') subtree?: string): Promise<WorkspaceChanges> {
    const opened = await this.openedOf(runThreadId(id), `Run ${id}`);
    return this.changesOf(opened, subtreeFlag(subtree) ? 'subtree' : 'own');
  }

  @Get('runs/:id/diff')
  @Header('content-type', 'text/x-diff; charset=utf-8')
  @ApiOperation({ summary: 'The run’s worktree against its base as a unified diff (`?path=` one file). 404 without a workspace' })
  async runDiff(@Param('id') id: string, @Query('path') file?: string): Promise<string> {
    return this.workspaces.diff(await this.openedOf(runThreadId(id), `Run ${id}`), pathFilter(file));
  }

  @Get('runs/:id/checkpoints')
  @ApiOperation({ summary: 'The run’s checkpoints and the merges of its branch, oldest first. 404 without a workspace' })
  async runCheckpoints(@Param('id') id: string): Promise<{ checkpoints: WorkspaceCheckpointedData[]; merges: WorkspaceMergedData[] }> {
    await this.openedOf(runThreadId(id), `Run ${id}`);
    return this.workspaces.history(runThreadId(id));
  }

  private async openedOf(sessionId: string, what: string): Promise<WorkspaceOpenedData> {
    const opened = await this.workspaces.opened(sessionId);
    if (!opened) throw new NoWorkspaceError(what);
    return opened;
  }

  private async changesOf(opened: WorkspaceOpenedData, scope: 'own' | 'subtree'): Promise<WorkspaceChanges> {
    const { checkpoints, merges } = await this.workspaces.history(opened.sessionId);
    const files = scope === 'subtree' ? await this.workspaces.changes(opened) : ownFiles(checkpoints);
    return {
      sessionId: opened.sessionId,
      ...(opened.runId ? { runId: opened.runId } : {}),
      repository: opened.repository,
      branch: opened.branch,
      baseCommit: opened.baseCommit,
      scope,
      files,
      merges,
    };
  }
}

/** The files of a run's own checkpoints, one row per path: the last status, the lines summed. */
function ownFiles(checkpoints: readonly WorkspaceCheckpointedData[]): FileChange[] {
  const byPath = new Map<string, FileChange>();
  for (const checkpoint of checkpoints) {
    if (checkpoint.cause === 'before-merge' && checkpoint.files.length === 0) continue;
    for (const file of checkpoint.files) {
      const seen = byPath.get(file.path);
      byPath.set(
        file.path,
        seen
          ? {
              ...file,
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

function subtreeFlag(value: string | undefined): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new InvalidInputError(`subtree must be true or false (got "${value}")`, { subtree: value });
}

/** A repository-relative path: never absolute, never climbing out (git would refuse it too, less clearly). */
function pathFilter(file: string | undefined): string | undefined {
  if (file === undefined || file === '') return undefined;
  if (file.startsWith('/') || file.split(/[\\/]/).includes('..') || file.length > 4096) {
    throw new InvalidInputError(`path must be a path inside the repository, like src/index.ts (got "${file}")`, { path: file });
  }
  return file;
}
