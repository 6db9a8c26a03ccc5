import { Args, type ComplexityEstimatorArgs, Context, ID, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { QueryBus } from '@nestjs/cqrs';
import { ModelCallLoaders } from './model-call-loaders';
import { type RunRow, Run } from '../../run-lineage';
import { decodeModelCallCursor, type ModelCallBodies, type ModelCallView } from '../model-call-view';
import { GetModelCall } from '../queries/get-model-call/get-model-call.query';
import { GetModelRoute } from '../queries/get-model-route/get-model-route.query';
import { ListSessionModelCalls } from '../queries/list-session-model-calls/list-session-model-calls.query';
import { type GraphqlContext, ListSize, nullWhenNotFound } from '../../graphql-api';
import { ModelCall, ModelCallPage, ModelCallSpend, ModelRouteState } from './model-call.model';
import { Session } from '../../sessions';

const CALLS_LIMIT = new ListSize('limit', 1, 500, 50);
/** The list's cost: its limit (null: the default) times its items'. */
const callsComplexity = (estimate: ComplexityEstimatorArgs) => {
  const limit: unknown = estimate.args.limit;
  return CALLS_LIMIT.complexity({ ...estimate, args: { ...estimate.args, limit: limit ?? CALLS_LIMIT.fallback } });
};
const CURSOR_ARG = { type: () => String, nullable: true, description: 'nextCursor of the previous page' } as const;
// Nullable with defaults, as the console's contract has them: an explicit null means the default.
const LIMIT_ARG = { ...CALLS_LIMIT.arg, nullable: true } as const;
const SUBTREE_ARG = { type: () => Boolean, nullable: true, defaultValue: false, description: 'also the calls of every run under it' } as const;

/** A call as the list gave it (bodies unread) or as `modelCall` gave it (bodies read with it). */
type ModelCallParent = ModelCallView & Partial<ModelCallBodies>;

/** issue 25: one model call, the route's state, and a call's bodies read from its stream only when asked. */
@Resolver(() => ModelCall)
export class ModelCallsResolver {
  constructor(private readonly queryBus: QueryBus) {}

  @Query(() => ModelCall, { nullable: true, description: 'One model call (GET /api/model-calls/:id); its request and answer when kept' })
  modelCall(@Args('id', { type: () => ID }) id: string) {
    return nullWhenNotFound(this.queryBus.execute(new GetModelCall(id)));
  }

  @Query(() => ModelRouteState, { description: 'Whether the Copilot CLI hands its model calls to Switchboard (when not, none are recorded), and why not' })
  async modelRoute(): Promise<ModelRouteState> {
    const route = await this.queryBus.execute(new GetModelRoute());
    return route.routed ? { routed: true, reason: null } : route;
  }

  @ResolveField(() => String, { nullable: true })
  async request(@Parent() call: ModelCallParent, @Context() context: GraphqlContext) {
    return (await this.bodiesOf(call, context)).request;
  }

  @ResolveField(() => String, { nullable: true })
  async answer(@Parent() call: ModelCallParent, @Context() context: GraphqlContext) {
    return (await this.bodiesOf(call, context)).answer;
  }

  @ResolveField(() => Boolean)
  async requestTruncated(@Parent() call: ModelCallParent, @Context() context: GraphqlContext) {
    return (await this.bodiesOf(call, context)).requestTruncated;
  }

  @ResolveField(() => Boolean)
  async answerTruncated(@Parent() call: ModelCallParent, @Context() context: GraphqlContext) {
    return (await this.bodiesOf(call, context)).answerTruncated;
  }

  private bodiesOf(call: ModelCallParent, { loaders }: GraphqlContext): Promise<ModelCallBodies> | ModelCallBodies {
    const { request, answer, requestTruncated, answerTruncated } = call;
    if (request !== undefined && answer !== undefined && requestTruncated !== undefined && answerTruncated !== undefined) {
      return { request, answer, requestTruncated, answerTruncated };
    }
    return loaders.of(ModelCallLoaders).modelCallBodies.load(call.callId);
  }
}

/** A session's model calls and what they spent. */
@Resolver(() => Session)
export class SessionModelCallsResolver {
  constructor(private readonly queryBus: QueryBus) {}

  @ResolveField(() => ModelCallPage, {
    description: "Its model calls (its agent's and its CLI sub-agents'), oldest first, a page at a time",
    complexity: callsComplexity,
  })
  modelCalls(@Parent() session: { sessionId: string }, @Args('after', CURSOR_ARG) after?: string | null, @Args('limit', LIMIT_ARG) limit?: number | null) {
    return this.queryBus.execute(new ListSessionModelCalls(session.sessionId, CALLS_LIMIT.check(limit ?? CALLS_LIMIT.fallback), after ?? undefined));
  }

  @ResolveField(() => ModelCallSpend, { description: 'Tokens and cost of its model calls' })
  modelCallSpend(@Parent() session: { sessionId: string }, @Context() { loaders }: GraphqlContext) {
    return loaders.of(ModelCallLoaders).modelCallSpend.load({ sessionId: session.sessionId });
  }
}

/** A run's model calls and what they spent, its own or its whole subtree's, batched per tree level. */
@Resolver(() => Run)
export class RunModelCallsResolver {
  @ResolveField(() => ModelCallPage, {
    description: 'Its model calls (subtree: those of every run under it too), oldest first, a page at a time',
    complexity: callsComplexity,
  })
  modelCalls(
    @Parent() run: RunRow,
    @Context() { loaders }: GraphqlContext,
    @Args('subtree', SUBTREE_ARG) subtree?: boolean | null,
    @Args('after', CURSOR_ARG) after?: string | null,
    @Args('limit', LIMIT_ARG) limit?: number | null,
  ) {
    return loaders.of(ModelCallLoaders).runModelCalls.load({
      runId: run.runId,
      subtreePath: subtree === true ? run.path : undefined,
      after: after === undefined || after === null ? undefined : decodeModelCallCursor(after),
      limit: CALLS_LIMIT.check(limit ?? CALLS_LIMIT.fallback),
    });
  }

  @ResolveField(() => ModelCallSpend, { description: 'Tokens and cost of its model calls (subtree: and of every run under it)' })
  modelCallSpend(@Parent() run: RunRow, @Context() { loaders }: GraphqlContext, @Args('subtree', SUBTREE_ARG) subtree?: boolean | null) {
    return loaders.of(ModelCallLoaders).modelCallSpend.load(subtree === true ? { runPath: run.path } : { runId: run.runId });
  }
}
