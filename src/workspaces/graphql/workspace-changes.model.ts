import { Field, ID, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('WorkspaceFileChange', { description: 'One file a workspace changed, as git counts it (binary: 0 and 0)' })
export class WorkspaceFileChangeModel {
  @Field() path!: string;
  @Field({ description: 'added, modified, deleted, renamed or type-changed' }) status!: string;
  @Field(() => Int) additions!: number;
  @Field(() => Int) deletions!: number;
  @Field(() => String, { nullable: true }) previousPath!: string | null;
  @Field() binary!: boolean;
}

@ObjectType('WorkspaceMerge', { description: "A run's branch merged into its lead's worktree, or the conflicts left there" })
export class WorkspaceMergeModel {
  @Field(() => ID, { description: "The run's thread whose branch was merged" }) sessionId!: string;
  @Field(() => ID, { nullable: true }) runId!: string | null;
  @Field(() => ID) intoSessionId!: string;
  @Field({ description: 'merged, up-to-date, conflicted or failed' }) outcome!: string;
  @Field(() => String, { nullable: true }) commit!: string | null;
  @Field(() => [WorkspaceFileChangeModel]) files!: WorkspaceFileChangeModel[];
  @Field(() => [String], { description: 'Paths left with conflict markers in the lead’s worktree' }) conflicts!: string[];
  @Field(() => String, { nullable: true }) error!: string | null;
}

@ObjectType('WorkspaceCheckpoint', { description: 'A commit of what one step changed' })
export class WorkspaceCheckpointModel {
  @Field() commit!: string;
  @Field({ description: 'tool, turn-end, recovered or before-merge' }) cause!: string;
  @Field(() => String, { nullable: true }) toolCallId!: string | null;
  @Field(() => String, { nullable: true }) toolName!: string | null;
  @Field(() => [WorkspaceFileChangeModel]) files!: WorkspaceFileChangeModel[];
}

@ObjectType('WorkspaceChanges', { description: "What a session's or run's git worktree changed (issue 42)" })
export class WorkspaceChangesModel {
  @Field(() => ID) sessionId!: string;
  @Field(() => ID, { nullable: true }) runId!: string | null;
  @Field() repository!: string;
  @Field() branch!: string;
  @Field() baseCommit!: string;
  @Field({ description: "own: the run's own steps; subtree: its worktree against its base, merged runs included" }) scope!: string;
  @Field(() => [WorkspaceFileChangeModel]) files!: WorkspaceFileChangeModel[];
  @Field(() => [WorkspaceMergeModel]) merges!: WorkspaceMergeModel[];
  /** Resolved on demand (WorkspacesResolver), with `diff`. */
  checkpoints?: WorkspaceCheckpointModel[];
}
