import { Field, Float, InputType, Int, ObjectType } from '@nestjs/graphql';

/** Budgets are shown and given alike by agents, sessions, runs and schedules: one pair of types for all of them. */
@ObjectType({ description: 'Budget limits (unset: not limited)' })
export class BudgetLimits {
  @Field(() => Int, { nullable: true }) maxTokens!: number | null;
  @Field(() => Int, { nullable: true }) maxToolCalls!: number | null;
  @Field(() => Int, { nullable: true }) maxRuns!: number | null;
  @Field(() => Int, { nullable: true }) maxDurationMs!: number | null;
  @Field(() => Float, { nullable: true, description: "In the price table's currency" }) maxCost!: number | null;
}

@InputType({
  description:
    "Limits over a run and every run under it (any subset, positive integers; maxCost a positive amount); never more than its parent's budget has left",
})
export class RunBudgetInput {
  @Field(() => Int, { nullable: true }) maxTokens?: number;
  @Field(() => Int, { nullable: true }) maxToolCalls?: number;
  @Field(() => Int, { nullable: true }) maxRuns?: number;
  @Field(() => Int, { nullable: true }) maxDurationMs?: number;
  @Field(() => Float, {
    nullable: true,
    description: "In the price table's currency (SWITCHBOARD_MODEL_PRICES); needs the table and model calls routed through Switchboard",
  })
  maxCost?: number;
}
