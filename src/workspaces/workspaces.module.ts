import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { WorkspacesResolver } from './graphql/workspaces.resolver';
import { WorkspaceBlameQuery } from './queries/workspace-blame';
import { WorkspaceChangesQuery } from './queries/workspace-changes';
import { StepAttributions } from './step-attribution';
import { WorkspaceMetrics } from './workspace-metrics';
import { Workspaces } from './workspaces';
import { WorkspacesAccess } from './workspaces.access';
import { WorkspacesController } from './workspaces.controller';

/**
 * issue 42: a git worktree per session and per run. The sessions context opens one when a session is
 * created and checkpoints it after a tool call; the delegation engine merges a completed run's into its
 * parent's. This context reads only its own streams (`workspace-<sessionId>`) and git; the model-calls and
 * approvals contexts add what they know of a step through the `@ProvidesStepAttribution()` slot.
 */
@Module({
  imports: [DiscoveryModule],
  controllers: [WorkspacesController],
  providers: [Workspaces, WorkspaceChangesQuery, WorkspaceBlameQuery, StepAttributions, WorkspaceMetrics, WorkspacesResolver, WorkspacesAccess],
  exports: [Workspaces],
})
export class WorkspacesModule {}
