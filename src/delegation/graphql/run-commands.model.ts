import { Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { RunBudgetInput } from '../../graphql-api';
import { Run } from '../../run-lineage';
import { WorkspaceInput } from '../../sessions';

@InputType({ description: "A run's own delegation policy; unset fields come from its agent definition, then the service defaults" })
export class RunPolicyInput {
  @Field(() => [String], { nullable: true }) allowedAgents?: string[];
  @Field(() => [String], { nullable: true }) excludedAgents?: string[];
  @Field(() => Int, { nullable: true }) maxDepth?: number;
  @Field(() => Int, { nullable: true }) maxConcurrentChildren?: number;
  @Field(() => Int, { nullable: true }) timeoutMs?: number;
}

@InputType({ description: 'agent_run: start a run (the POST /api/runs body)' })
export class AgentRunInput {
  @Field() agentId!: string;
  @Field() prompt!: string;
  @Field({ nullable: true, description: 'Default true: answer at once; false: answer when the run ended' }) background?: boolean;
  @Field(() => ID, { nullable: true, description: 'Start it as a child of this (running) run' }) parentRunId?: string;
  @Field(() => RunPolicyInput, { nullable: true }) policy?: RunPolicyInput;
  @Field({ nullable: true, description: "Default false; true: the run starts with a copy of its parent run's conversation (needs parentRunId)" })
  forkContext?: boolean;
  @Field(() => RunBudgetInput, { nullable: true }) budget?: RunBudgetInput;
  @Field(() => WorkspaceInput, { nullable: true, description: "issue 42: a git worktree from this repository instead of its parent's working state" })
  workspace?: WorkspaceInput;
}

@ObjectType()
export class RunStopResult {
  @Field(() => Run) run!: Run;
  @Field(() => [ID], { description: 'Every run the stop reached: the run and its running descendants' }) stoppedRuns!: string[];
}
