import { Module } from '@nestjs/common';
import { WorkspacesResolver } from './graphql/workspaces.resolver';
import { WorkspaceChangesQuery } from './queries/workspace-changes';
import { Workspaces } from './workspaces';
import { WorkspacesAccess } from './workspaces.access';
import { WorkspacesController } from './workspaces.controller';

/**
 * issue 42: a git worktree per session and per run. The sessions context opens one when a session is
 * created and checkpoints it after a tool call; the delegation engine merges a completed run's into its
 * parent's. This context reads only its own streams (`workspace-<sessionId>`) and git.
 */
@Module({
  controllers: [WorkspacesController],
  providers: [Workspaces, WorkspaceChangesQuery, WorkspacesResolver, WorkspacesAccess],
  exports: [Workspaces],
})
export class WorkspacesModule {}
