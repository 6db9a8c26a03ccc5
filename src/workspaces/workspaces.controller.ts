import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { DocumentedAnswers } from '../common';
import { subtreeFlag, type WorkspaceChanges, WorkspaceChangesQuery, type WorkspaceHistory } from './queries/workspace-changes';
import { type WorkspaceBlame, WorkspaceBlameQuery } from './queries/workspace-blame';
import { WORKSPACES_ANSWERS } from './workspaces.api-answers';

/**
 * issue 42: what each session and run changed in its git worktree. A run is read through its thread
 * (`sub-agent-<runId>`); its worktree holds what its children merged into it, so its subtree is its worktree.
 */
@ApiTags('workspaces')
@DocumentedAnswers(WORKSPACES_ANSWERS)
@Controller('api')
export class WorkspacesController {
  constructor(
    private readonly query: WorkspaceChangesQuery,
    private readonly blameQuery: WorkspaceBlameQuery,
  ) {}

  @Get('sessions/:id/changes')
  @ApiOperation({
    summary: 'The files the session’s worktree changed against its base, merged runs and uncommitted changes included. 404 without a workspace',
  })
  sessionChanges(@Param('id') id: string): Promise<WorkspaceChanges> {
    return this.query.changes({ session: id });
  }

  @Get('sessions/:id/diff')
  @ApiOperation({ summary: 'The session’s worktree against its base as a unified diff (`?path=` one file). 404 without a workspace' })
  async sessionDiff(@Param('id') id: string, @Res({ passthrough: true }) response: Response, @Query('path') file?: string): Promise<string> {
    return asDiff(response, await this.query.diff({ session: id }, file));
  }

  @Get('sessions/:id/checkpoints')
  @ApiOperation({ summary: 'The session’s checkpoints (a commit after each step that changed files) and merges, oldest first. 404 without a workspace' })
  sessionCheckpoints(@Param('id') id: string): Promise<WorkspaceHistory> {
    return this.query.history({ session: id });
  }

  @Get('sessions/:id/blame')
  @ApiOperation({
    summary:
      'Who last wrote each line of one file (`?path=`): the run, agent, tool call, model call and approval of the step, down the runs merged into the session. 404 without a workspace or the file',
  })
  sessionBlame(@Param('id') id: string, @Query('path') file?: string): Promise<WorkspaceBlame> {
    return this.blameQuery.blame({ session: id }, file);
  }

  @Get('runs/:id/changes')
  @ApiOperation({
    summary:
      'The files the run changed: its own steps, with `?subtree=true` its worktree against its base (its children merged into it), with `?against=<runId>` its worktree against that run’s (a replay against its original). 404 without a workspace',
  })
  @ApiQuery({ name: 'against', required: false, description: "another run of the repository (a replay's original): its worktree against that run's" })
  runChanges(@Param('id') id: string, @Query('subtree') subtree?: string, @Query('against') against?: string): Promise<WorkspaceChanges> {
    return this.query.changes({ run: id }, subtreeFlag(subtree), against);
  }

  @Get('runs/:id/diff')
  @ApiOperation({
    summary: 'The run’s worktree against its base (or `?against=` another run’s worktree) as a unified diff (`?path=` one file). 404 without a workspace',
  })
  async runDiff(
    @Param('id') id: string,
    @Res({ passthrough: true }) response: Response,
    @Query('path') file?: string,
    @Query('against') against?: string,
  ): Promise<string> {
    return asDiff(response, await this.query.diff({ run: id }, file, against));
  }

  @Get('runs/:id/blame')
  @ApiOperation({
    summary:
      'Who last wrote each line of one file (`?path=`) of the run’s worktree, its children’s merged work included. 404 without a workspace or the file',
  })
  runBlame(@Param('id') id: string, @Query('path') file?: string): Promise<WorkspaceBlame> {
    return this.blameQuery.blame({ run: id }, file);
  }

  @Get('runs/:id/checkpoints')
  @ApiOperation({ summary: 'The run’s checkpoints and the merges of its branch, oldest first. 404 without a workspace' })
  runCheckpoints(@Param('id') id: string): Promise<WorkspaceHistory> {
    return this.query.history({ run: id });
  }
}

/** A diff is text/x-diff; set only once there is one, so a refusal stays the JSON error every route answers. */
function asDiff(response: Response, diff: string): string {
  response.setHeader('content-type', 'text/x-diff; charset=utf-8');
  return diff;
}
