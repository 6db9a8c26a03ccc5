import { Context, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import type { GraphqlContext } from '../../graphql-api';
import { Run, type RunRow } from '../../run-lineage';
import { RoutedRequest } from './routed-request.model';
import { RunRequestLoaders } from './run-request-loaders';

/** Estimated size of a thread's request list (no count argument), for the complexity limit. */
const PER_THREAD_ESTIMATE = 5;

/** What tool dispatch adds to a run: the tool calls and permission decisions routed for its thread. */
@Resolver(() => Run)
export class RunRequestsResolver {
  @ResolveField(() => [RoutedRequest], {
    description: 'Tool calls routed for its thread and its CLI-native sub-agents, in order',
    complexity: ({ childComplexity }) => PER_THREAD_ESTIMATE * childComplexity,
  })
  toolCalls(@Parent() run: RunRow, @Context() { loaders }: GraphqlContext) {
    return loaders.of(RunRequestLoaders).toolCalls.load(run.threadId);
  }

  @ResolveField(() => [RoutedRequest], {
    description: 'Permission decisions made for its thread and its CLI-native sub-agents, in order',
    complexity: ({ childComplexity }) => PER_THREAD_ESTIMATE * childComplexity,
  })
  permissionDecisions(@Parent() run: RunRow, @Context() { loaders }: GraphqlContext) {
    return loaders.of(RunRequestLoaders).permissionDecisions.load(run.threadId);
  }
}
