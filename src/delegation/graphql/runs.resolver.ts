import { Inject } from '@nestjs/common';
import { Args, Context, Float, ID, Int, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { QueryBus } from '@nestjs/cqrs';
import { RunDetailLoaders } from './run-detail-loaders';
import { ModelCallLoaders } from '../../model-calls';
import {
  RunLoaders,
  ListRuns,
  encodeRunCursor,
  ancestorIdsOf,
  ownUsage,
  type RunRow,
  type RunUsage,
  Run,
  RunBudgetModel,
  RunConnection,
  RunFilterInput,
  RunUsageModel,
  RemoteRunModel,
  Usage,
} from '../../run-lineage';
import { AFTER_CURSOR_ARG, budgetLimitsOf, type GraphqlContext, inRange, ListSize, presentFields, ActorModel } from '../../graphql-api';
import { runStreamId, sessionStreamId } from '../../event-store';
import { budgetUseOf } from '../budget-guard';
import { type BudgetView, budgetView, type RunBudget } from '../run-budget';
import { remoteView, runCostOf } from '../run-view';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../config';
import { EventPage } from '../../event-log';
import { SubagentInstance } from '../../sessions';

const parseJson = (value: string | null): unknown => {
  if (value === null) return null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
};

/** A runs row as the Run type: JSON columns parsed; the row's other fields stay for the field resolvers. */
export function runOf(row: RunRow): Run & RunRow {
  return { ...row, policy: parseJson(row.policy), stoppedBy: parseJson(row.stoppedBy) } as Run & RunRow;
}

/** A budget view (limits, use, what is left) as the GraphQL type; Run.budget and Session.budget share it. */
export function budgetModelOf(view: BudgetView): RunBudgetModel {
  const { tokens, tool_calls: toolCalls, runs, duration_ms: durationMs, cost } = view.used!;
  return { limits: budgetLimitsOf(view.limits), used: { tokens, toolCalls, runs, durationMs, cost }, remaining: budgetLimitsOf(view.remaining ?? {}) };
}

const usageOf = (usage: RunUsage, spendOf: Usage['spendOf']): Usage => ({ ...usage, totalTokens: usage.inputTokens + usage.outputTokens, spendOf });

/** Estimated sizes of lists without a count argument, for the complexity limit. */
const ANCESTORS_ESTIMATE = 10;
const PER_THREAD_ESTIMATE = 5;

const RUNS_FIRST = new ListSize('first', 1, 500, 50);
const CHILDREN_FIRST = new ListSize('first', 1, 500, 50);
const SUBTREE_LIMIT = new ListSize('limit', 1, 10_000, 1000);
const EVENTS_FIRST = new ListSize('first', 1, 1000, 100);

@Resolver(() => Run)
export class RunsResolver {
  constructor(private readonly queryBus: QueryBus) {}

  @Query(() => RunConnection, {
    description: 'Runs, newest first, filtered, paged by cursor',
    complexity: RUNS_FIRST.complexity,
  })
  async runs(
    @Args('filter', { type: () => RunFilterInput, nullable: true }) filter?: RunFilterInput,
    @Args('first', RUNS_FIRST.arg) first = RUNS_FIRST.fallback,
    @Args('after', AFTER_CURSOR_ARG) after?: string,
  ): Promise<RunConnection> {
    const page = await this.queryBus.execute(new ListRuns(presentFields(filter), RUNS_FIRST.check(first), after ?? undefined));
    return {
      edges: page.runs.map((row) => ({ cursor: encodeRunCursor(row), node: runOf(row) })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor ?? after ?? null },
    };
  }

  @Query(() => Run, { nullable: true })
  async run(@Args('id', { type: () => ID }) id: string, @Context() { loaders }: GraphqlContext) {
    const row = await loaders.of(RunLoaders).runById.load(id);
    return row ? runOf(row) : null;
  }

  @ResolveField(() => Run, { nullable: true })
  async parent(@Parent() run: RunRow, @Context() { loaders }: GraphqlContext) {
    if (!run.parentRunId) return null;
    const row = await loaders.of(RunLoaders).runById.load(run.parentRunId);
    return row ? runOf(row) : null;
  }

  @ResolveField(() => [Run], {
    description: 'Runs it started, oldest first',
    complexity: CHILDREN_FIRST.complexity,
  })
  async children(@Parent() run: RunRow, @Context() { loaders }: GraphqlContext, @Args('first', CHILDREN_FIRST.arg) first = CHILDREN_FIRST.fallback) {
    return (await loaders.of(RunLoaders).children.load({ runId: run.runId, first: CHILDREN_FIRST.check(first) })).map(runOf);
  }

  @ResolveField(() => [Run], {
    description: 'Runs above it, root first (read from its lineage path)',
    complexity: ({ childComplexity }) => ANCESTORS_ESTIMATE * childComplexity,
  })
  async ancestors(@Parent() run: RunRow, @Context() { loaders }: GraphqlContext) {
    const rows = await loaders.of(RunLoaders).runById.loadMany(ancestorIdsOf(run.path));
    return rows.filter((row): row is RunRow => row !== null && !(row instanceof Error)).map(runOf);
  }

  @ResolveField(() => [Run], {
    description: 'This run and the runs below it, depth-first (lineage path order), at most `limit` of them',
    complexity: SUBTREE_LIMIT.complexity,
  })
  async subtree(
    @Parent() run: RunRow,
    @Context() { loaders }: GraphqlContext,
    @Args('maxDepth', { type: () => Int, nullable: true, description: 'levels below this run; unset: all' }) maxDepth?: number,
    @Args('limit', SUBTREE_LIMIT.arg) limit = SUBTREE_LIMIT.fallback,
  ) {
    const rows = await loaders.of(RunLoaders).subtree.load({
      path: run.path,
      depth: run.depth,
      maxDepth: maxDepth === undefined || maxDepth === null ? undefined : inRange('maxDepth', maxDepth, 0, 1000),
      limit: SUBTREE_LIMIT.check(limit),
    });
    return rows.map(runOf);
  }

  @ResolveField(() => RunBudgetModel, { nullable: true, description: 'Its budget over its subtree: limits, use and what is left; null without one' })
  async budget(@Parent() run: RunRow, @Context() { loaders }: GraphqlContext): Promise<RunBudgetModel | null> {
    if (!run.budget) return null;
    const [spend, calls] = await Promise.all([
      loaders.of(RunLoaders).subtreeSpend.load(run.path),
      loaders.of(ModelCallLoaders).modelCallSpend.load({ runPath: run.path }),
    ]);
    return budgetModelOf(budgetView(JSON.parse(run.budget) as RunBudget, budgetUseOf(spend, calls)));
  }

  @ResolveField(() => ActorModel, {
    nullable: true,
    description:
      'issue 39: who started it (a person, a key, an agent through agent_run, Switchboard for a schedule); null for runs started before it was recorded',
  })
  startedBy(@Parent() run: RunRow): ActorModel | null {
    return run.startedBy ? (JSON.parse(run.startedBy) as ActorModel) : null;
  }

  @ResolveField(() => RemoteRunModel, {
    nullable: true,
    description: "issue 43: a remote agent's run: its service and remote task; null for a run that runs here",
  })
  remote(@Parent() run: RunRow): RemoteRunModel | null {
    const remote = remoteView(run.remote);
    return (
      remote && {
        a2a: remote.a2a,
        service: remote.service,
        taskId: remote.task_id,
        contextId: remote.context_id,
        reportedTokens: remote.usage?.total_tokens ?? null,
        reportedCost: remote.usage?.cost ?? null,
        reportedCurrency: remote.usage?.currency ?? null,
      }
    );
  }

  @ResolveField(() => RunUsageModel, { description: 'Tokens, tool calls and time: its own, and summed over its subtree' })
  usage(@Parent() run: RunRow) {
    return run;
  }

  @ResolveField(() => [SubagentInstance], {
    description: 'CLI-native sub-agents its thread launched',
    complexity: ({ childComplexity }) => PER_THREAD_ESTIMATE * childComplexity,
  })
  subagentInstances(@Parent() run: RunRow, @Context() { loaders }: GraphqlContext) {
    return loaders.of(RunDetailLoaders).subagents.load(run.threadId);
  }

  @ResolveField(() => EventPage, {
    description: "Its events (stream run-<runId>; with includeSession also its thread's session stream), in global order",
    complexity: EVENTS_FIRST.complexity,
  })
  async events(
    @Parent() run: RunRow,
    @Context() { loaders }: GraphqlContext,
    @Args('after', { type: () => Int, defaultValue: 0, description: 'global position to start after' }) after = 0,
    @Args('first', EVENTS_FIRST.arg) first = EVENTS_FIRST.fallback,
    @Args('includeSession', { type: () => Boolean, defaultValue: false }) includeSession = false,
  ): Promise<EventPage> {
    const streamIds = includeSession ? [runStreamId(run.runId), sessionStreamId(run.threadId)] : [runStreamId(run.runId)];
    const events = await loaders
      .of(RunDetailLoaders)
      .events.load({ streamIds, after: inRange('after', after, 0, Number.MAX_SAFE_INTEGER), limit: EVENTS_FIRST.check(first) });
    return { events, nextAfter: events.length ? events[events.length - 1].globalPosition : after };
  }
}

@Resolver(() => RunUsageModel)
export class RunUsageResolver {
  @ResolveField(() => Usage)
  own(@Parent() run: RunRow) {
    return usageOf(ownUsage(run), { runId: run.runId });
  }

  @ResolveField(() => Usage)
  async subtree(@Parent() run: RunRow, @Context() { loaders }: GraphqlContext) {
    return usageOf(await loaders.of(RunLoaders).subtreeUsage.load(run.path), { path: run.path });
  }
}

/** A usage's cost, from the ledger's spend loader (the one Run.modelCallSpend reads): only when asked, batched per operation. */
@Resolver(() => Usage)
export class UsageCostResolver {
  constructor(@Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig) {}

  @ResolveField(() => Float, {
    nullable: true,
    description:
      "Cost of its model calls in `currency` (SWITCHBOARD_MODEL_PRICES); null when unknown (no price table, or none of its calls' models has a price)",
  })
  async cost(@Parent() usage: Usage, @Context() context: GraphqlContext): Promise<number | null> {
    return (await this.costOf(usage, context)).cost;
  }

  @ResolveField(() => String, { nullable: true })
  async currency(@Parent() usage: Usage, @Context() context: GraphqlContext): Promise<string | null> {
    return (await this.costOf(usage, context)).currency;
  }

  @ResolveField(() => Int, { description: 'Model calls whose cost is unknown (their model is not in the price table, or no usage reported): not in cost' })
  async unpricedCalls(@Parent() usage: Usage, @Context() context: GraphqlContext): Promise<number> {
    return (await this.costOf(usage, context)).unpriced_calls;
  }

  @ResolveField(() => Int, { description: 'Model calls recorded (routed through Switchboard)' })
  async modelCalls(@Parent() usage: Usage, @Context() context: GraphqlContext): Promise<number> {
    return (await this.costOf(usage, context)).model_calls;
  }

  private async costOf(usage: Usage, { loaders }: GraphqlContext) {
    const key = 'runId' in usage.spendOf ? { runId: usage.spendOf.runId } : { runPath: usage.spendOf.path };
    return runCostOf(await loaders.of(ModelCallLoaders).modelCallSpend.load(key), this.config.modelCalls.prices);
  }
}
