import { Field, Float, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { BudgetLimits, JsonScalar, TimestampScalar, PageInfo } from '../../graphql-api';

@ObjectType({ description: 'A delegation run: one agent working on one prompt on its own thread, maybe below a parent run' })
export class Run {
  @Field(() => ID) runId!: string;
  @Field() agentId!: string;
  @Field() prompt!: string;
  @Field({ description: 'running, completed, failed, stopped or interrupted' }) status!: string;
  @Field() background!: boolean;
  @Field(() => ID, { nullable: true }) parentRunId!: string | null;
  @Field(() => String, { nullable: true, description: 'The thread (session) that started it' }) parentThreadId!: string | null;
  @Field({ description: 'The thread allowed to stop, resume and read it (a session id, or api)' }) ownerThreadId!: string;
  @Field(() => ID) rootRunId!: string;
  @Field(() => Int, { description: '0 for a root run' }) depth!: number;
  @Field({ description: 'Materialized lineage path /<root>/.../<self>/' }) path!: string;
  @Field({ description: 'Its own thread, the CLI session sub-agent-<runId>' }) threadId!: string;
  @Field(() => Int, { description: 'Launch number: 1, then one more per resume' }) epoch!: number;
  @Field(() => String, { nullable: true }) output!: string | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => JsonScalar, { nullable: true, description: 'Who stopped it: {actor, cascadeFrom?, reason}' }) stoppedBy!: unknown;
  @Field(() => JsonScalar, { description: 'The resolved run policy' }) policy!: unknown;
  @Field() startedAt!: string;
  @Field() launchedAt!: string;
  @Field(() => String, { nullable: true }) endedAt!: string | null;
  @Field() updatedAt!: string;
  @Field(() => ID, { nullable: true, description: 'issue 26: the run this one replays or forks (its original in the replay tree)' }) replayOf!:
    string | null;
  @Field(() => String, {
    nullable: true,
    description: "issue 26: replay or fork when this run is part of a replay's or a fork's tree (every run of a fork's tree is fork, not only its root)",
  })
  replayMode!: string | null;
}

@ObjectType({ description: "issue 43: where a remote agent's run runs: its service, over A2A" })
export class RemoteRunModel {
  @Field({ description: "The remote agent's A2A card URL" }) a2a!: string;
  @Field(() => String, { nullable: true, description: 'The remote agent, as its card names it; null until the message was sent' }) service!: string | null;
  @Field(() => String, { nullable: true, description: 'The task its service made of the run, which the run follows' }) taskId!: string | null;
  @Field(() => String, { nullable: true, description: "The task's A2A context (a resume continues in it)" }) contextId!: string | null;
  @Field(() => Float, { nullable: true, description: 'Tokens the service reported the task used (its metadata), once it ended' })
  reportedTokens!: number | null;
  @Field(() => Float, { nullable: true, description: 'What the service reported the task cost, in reportedCurrency' }) reportedCost!: number | null;
  @Field(() => String, { nullable: true }) reportedCurrency!: string | null;
}

@ObjectType({ description: 'What a subtree spent against its budget; a running run counts its time so far' })
export class BudgetUse {
  @Field(() => Int, { description: 'input + output tokens' }) tokens!: number;
  @Field(() => Int) toolCalls!: number;
  @Field(() => Int) runs!: number;
  @Field(() => Int) durationMs!: number;
  @Field(() => Float, { description: "Cost of its model calls in the price table's currency (a call of a model without a price counts 0 here)" })
  cost!: number;
}

@ObjectType({ description: "A budget over a run and every run under it (narrowed at start by its ancestors' budgets)" })
export class RunBudgetModel {
  @Field(() => BudgetLimits) limits!: BudgetLimits;
  @Field(() => BudgetUse) used!: BudgetUse;
  @Field(() => BudgetLimits, { description: 'What is left of each limit, never below 0' }) remaining!: BudgetLimits;
}

@ObjectType({ description: 'Tokens, tool calls and time' })
export class Usage {
  @Field(() => Int, { description: 'Runs counted: 1 for own usage' }) runs!: number;
  @Field(() => Int) inputTokens!: number;
  @Field(() => Int) outputTokens!: number;
  @Field(() => Int) totalTokens!: number;
  @Field(() => Int) toolCalls!: number;
  @Field(() => Int) durationMs!: number;
  /** Whose model calls its cost fields (resolved only when asked, batched per operation) sum: a run's own, or a subtree's. */
  spendOf!: { runId: string } | { path: string };
}

@ObjectType()
export class RunUsageModel {
  @Field(() => Usage, { description: 'This run alone' }) own!: Usage;
  @Field(() => Usage, { description: 'This run and every run below it' }) subtree!: Usage;
}

@ObjectType()
export class RunEdge {
  @Field() cursor!: string;
  @Field(() => Run) node!: Run;
}

@ObjectType()
export class RunConnection {
  @Field(() => [RunEdge]) edges!: RunEdge[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
}

@InputType()
export class RunFilterInput {
  @Field({ nullable: true, description: 'running, completed, failed, stopped or interrupted' }) status?: string;
  @Field({ nullable: true }) agentId?: string;
  @Field({ nullable: true }) rootRunId?: string;
  @Field(() => TimestampScalar, { nullable: true, description: 'started at or after' }) startedFrom?: string;
  @Field(() => TimestampScalar, { nullable: true, description: 'started before' }) startedTo?: string;
}

@ObjectType({ description: "issue 26: a fork's original run and the model call it went live from" })
export class ForkedFrom {
  @Field(() => ID) runId!: string;
  @Field(() => ID) modelCallId!: string;
}

@ObjectType({ description: 'issue 26: how a run of a replay or fork tree plays its original back' })
export class RunReplayInfo {
  @Field({ description: 'replay or fork' }) mode!: string;
  @Field(() => String, { nullable: true, description: 'stop or live, at the first call that differs from the record' }) onDivergence!: string | null;
  @Field(() => Boolean, { nullable: true }) allowSideEffects!: boolean | null;
  @Field(() => String, { nullable: true, description: 'fork: the message appended at the fork point' }) message!: string | null;
  @Field(() => JsonScalar, { nullable: true, description: 'fork: per agent name, {prompt?, model?}' }) agentOverrides!: unknown;
  @Field(() => String, { nullable: true, description: 'Who asked: console or api' }) requestedBy!: string | null;
  @Field(() => JsonScalar, {
    nullable: true,
    description:
      "The replay tree's first call whose request differed from the original's: {callId, agentName, position, originalCallId, divergence {part, at, original, now}, stopped}; null: none",
  })
  divergence!: unknown;
}
