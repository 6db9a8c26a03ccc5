import { Args, ID, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { FileChange, WorkspaceMergedData } from '../workspace.events';
import { type LineStep, WorkspaceBlameQuery } from '../queries/workspace-blame';
import { type AttributedCheckpoint, type WorkspaceChanges, WorkspaceChangesQuery } from '../queries/workspace-changes';
import {
  WorkspaceBlameModel,
  WorkspaceChangesModel,
  WorkspaceCheckpointModel,
  type WorkspaceFileChangeModel,
  type WorkspaceMergeModel,
} from './workspace-changes.model';

const fileOf = (file: FileChange): WorkspaceFileChangeModel => ({ ...file, previousPath: file.previousPath ?? null, binary: file.binary === true });
const mergeOf = (merge: WorkspaceMergedData): WorkspaceMergeModel => ({
  ...merge,
  runId: merge.runId ?? null,
  commit: merge.commit ?? null,
  error: merge.error ?? null,
  files: merge.files.map(fileOf),
});
const checkpointOf = (checkpoint: AttributedCheckpoint | LineStep): WorkspaceCheckpointModel => ({
  commit: checkpoint.commit,
  cause: checkpoint.cause,
  runId: checkpoint.runId ?? null,
  agentName: checkpoint.agentName ?? null,
  toolCallId: checkpoint.toolCallId ?? null,
  toolName: checkpoint.toolName ?? null,
  modelCallId: checkpoint.modelCallId ?? null,
  approval: checkpoint.approval ?? null,
  checkpointedAt: 'checkpointedAt' in checkpoint ? checkpoint.checkpointedAt : null,
  files: 'files' in checkpoint ? checkpoint.files.map(fileOf) : [],
});

/** What the resolver hands its fields: the changes and whose workspace they are. */
type ResolvedChanges = WorkspaceChangesModel & { owner: { session: string } | { run: string } };

/** issue 42: the REST reads of a workspace as GraphQL queries (the same query object answers both). */
@Resolver(() => WorkspaceChangesModel)
export class WorkspacesResolver {
  constructor(
    private readonly query: WorkspaceChangesQuery,
    private readonly blameQuery: WorkspaceBlameQuery,
  ) {}

  @Query(() => WorkspaceChangesModel, { description: "The session's worktree against its base; not_found without a workspace" })
  async sessionChanges(@Args('sessionId', { type: () => ID }) sessionId: string): Promise<ResolvedChanges> {
    return resolved(await this.query.changes({ session: sessionId }), { session: sessionId });
  }

  @Query(() => WorkspaceChangesModel, {
    description: "The run's own changes, or with subtree its worktree against its base; not_found without a workspace",
  })
  async runChanges(
    @Args('runId', { type: () => ID }) runId: string,
    @Args('subtree', { type: () => Boolean, nullable: true }) subtree?: boolean,
    @Args('against', {
      type: () => ID,
      nullable: true,
      description: "Another run of the repository (a replay's original): the files against its worktree instead of the base",
    })
    against?: string,
  ): Promise<ResolvedChanges> {
    return resolved(await this.query.changes({ run: runId }, subtree === true, against ?? undefined), { run: runId });
  }

  @ResolveField(() => String, { description: 'A unified diff of the worktree against its base, or the run compared with (one file with path)' })
  diff(@Parent() changes: ResolvedChanges, @Args('path', { type: () => String, nullable: true }) path?: string): Promise<string> {
    return this.query.diff(changes.owner, path ?? undefined, changes.againstRunId ?? undefined);
  }

  @ResolveField(() => WorkspaceBlameModel, {
    description: 'Who last wrote each line of one file: the run, agent, tool call, model call and approval of its step',
  })
  async blame(@Parent() changes: ResolvedChanges, @Args('path', { type: () => String }) path: string): Promise<WorkspaceBlameModel> {
    const blame = await this.blameQuery.blame(changes.owner, path);
    return {
      path: blame.path,
      baseCommit: blame.baseCommit,
      lines: blame.lines.map((line) => ({ ...line, commit: line.commit ?? null, step: line.step ? checkpointOf(line.step) : null })),
    };
  }

  @ResolveField(() => [WorkspaceCheckpointModel], { description: 'Its checkpoints, oldest first' })
  async checkpoints(@Parent() changes: ResolvedChanges): Promise<WorkspaceCheckpointModel[]> {
    return (await this.query.history(changes.owner)).checkpoints.map(checkpointOf);
  }
}

function resolved(changes: WorkspaceChanges, owner: ResolvedChanges['owner']): ResolvedChanges {
  return {
    ...changes,
    runId: changes.runId ?? null,
    againstRunId: changes.againstRunId ?? null,
    files: changes.files.map(fileOf),
    merges: changes.merges.map(mergeOf),
    owner,
  };
}
