import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ActorModel } from '../../graphql-api';

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

@ObjectType('WorkspaceStepApproval', { description: "A decision on a step's tool call: who approved (or denied) it, through what" })
export class WorkspaceStepApprovalModel {
  @Field(() => ID) approvalId!: string;
  @Field({ description: 'approve or deny' }) decision!: string;
  @Field(() => String, { nullable: true, description: 'once or session' }) scope!: string | null;
  @Field(() => String, { nullable: true, description: 'console, api or timeout' }) decidedBy!: string | null;
  @Field(() => ActorModel, { nullable: true }) decider!: ActorModel | null;
  @Field(() => String, { nullable: true }) decidedAt!: string | null;
}

@ObjectType('WorkspaceCheckpoint', { description: 'A commit of what one step changed' })
export class WorkspaceCheckpointModel {
  @Field() commit!: string;
  @Field({ description: 'tool, turn-end, recovered or before-merge' }) cause!: string;
  @Field(() => ID, { nullable: true, description: 'The run whose step it was' }) runId!: string | null;
  @Field(() => String, { nullable: true, description: "The agent whose tool call it was (a CLI sub-agent's name when one made it)" })
  agentName!: string | null;
  @Field(() => String, { nullable: true }) toolCallId!: string | null;
  @Field(() => String, { nullable: true }) toolName!: string | null;
  @Field(() => ID, { nullable: true, description: 'The model call whose answer asked for the tool' }) modelCallId!: string | null;
  @Field(() => WorkspaceStepApprovalModel, { nullable: true, description: 'The decision of a person on the tool call, when one was asked' })
  approval!: WorkspaceStepApprovalModel | null;
  @Field(() => String, { nullable: true, description: 'When it was recorded (set on a line’s step)' }) checkpointedAt!: string | null;
  @Field(() => [WorkspaceFileChangeModel]) files!: WorkspaceFileChangeModel[];
}

@ObjectType('WorkspaceBlameLine', { description: 'One line of a file and the step that last wrote it' })
export class WorkspaceBlameLineModel {
  @Field(() => Int) line!: number;
  @Field() text!: string;
  @Field({ description: 'base (there at the start), committed or uncommitted' }) origin!: string;
  @Field(() => String, { nullable: true }) commit!: string | null;
  @Field(() => WorkspaceCheckpointModel, { nullable: true, description: 'The checkpoint of the commit (none for a merge’s own lines)' })
  step!: WorkspaceCheckpointModel | null;
}

@ObjectType('WorkspaceBlame', { description: 'Who last wrote each line of one file of a worktree (issue 42)' })
export class WorkspaceBlameModel {
  @Field() path!: string;
  @Field() baseCommit!: string;
  @Field(() => [WorkspaceBlameLineModel]) lines!: WorkspaceBlameLineModel[];
}

@ObjectType('WorkspaceChanges', { description: "What a session's or run's git worktree changed (issue 42)" })
export class WorkspaceChangesModel {
  @Field(() => ID) sessionId!: string;
  @Field(() => ID, { nullable: true }) runId!: string | null;
  @Field() repository!: string;
  @Field() branch!: string;
  @Field() baseCommit!: string;
  @Field({
    description: "own: the run's own steps; subtree: its worktree against its base, merged runs included; against: its worktree against another run's",
  })
  scope!: string;
  @Field(() => ID, { nullable: true, description: 'The run compared with (scope against)' }) againstRunId!: string | null;
  @Field(() => [WorkspaceFileChangeModel]) files!: WorkspaceFileChangeModel[];
  @Field(() => [WorkspaceMergeModel]) merges!: WorkspaceMergeModel[];
  /** Resolved on demand (WorkspacesResolver), with `diff`. */
  checkpoints?: WorkspaceCheckpointModel[];
}
