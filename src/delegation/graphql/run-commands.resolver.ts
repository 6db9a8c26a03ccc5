import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Args, Context, ID, Int, Mutation, Resolver, Subscription } from '@nestjs/graphql';
import { callerTrace } from '../../common';
import { type GraphqlContext, inRange, validated, observableToAsyncIterator, apiBudgetFromInput } from '../../graphql-api';
import { StartRun } from '../commands/start-run/start-run.command';
import { StopRun } from '../commands/stop-run/stop-run.command';
import { UnknownRunError } from '../run.errors';
import { API_CALLER } from '../run-caller';
import { resumeRunSchema, startRunInput, startRunSchema, stopRunSchema } from '../run-requests';
import { GetRunsById, Run } from '../../run-lineage';
import { WatchRunEvents } from '../queries/watch-run-events/watch-run-events.query';
import { StoredEventModel } from '../../event-log';
import { AgentRunInput, RunStopResult } from './run-commands.model';
import { runOf } from './runs.resolver';

/** GraphQL, like REST, acts as an operator: it may stop or resume any run. */

/** spec: sub-agent-delegation. The run commands (the same handlers as the tools and REST) and live run events. */
@Resolver(() => Run)
export class RunCommandsResolver {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Mutation(() => Run, { description: 'agent_run: start a run; with background: false it answers once the run ended' })
  async agentRun(@Args('input', { type: () => AgentRunInput }) input: AgentRunInput, @Context() context: GraphqlContext) {
    const body = validated(startRunSchema, {
      agentId: input.agentId,
      prompt: input.prompt,
      background: input.background ?? undefined,
      parentRunId: input.parentRunId ?? undefined,
      forkContext: input.forkContext ?? undefined,
      policy: input.policy
        ? {
            allowedAgents: input.policy.allowedAgents ?? undefined,
            excludedAgents: input.policy.excludedAgents ?? undefined,
            maxDepth: input.policy.maxDepth ?? undefined,
            maxConcurrentChildren: input.policy.maxConcurrentChildren ?? undefined,
            timeoutMs: input.policy.timeoutMs ?? undefined,
          }
        : undefined,
      budget: input.budget ? apiBudgetFromInput(input.budget) : undefined,
      workspace: input.workspace ? { ...input.workspace } : undefined,
    });
    // issue 28: a root run nests under the caller's span when the HTTP request carried a traceparent.
    const traceparent = callerTrace(context.req?.headers);
    const summary = await this.commandBus.execute(new StartRun(startRunInput(body), traceparent ? { kind: 'api', traceparent } : API_CALLER));
    return this.run(summary.run_id);
  }

  @Mutation(() => RunStopResult, { description: 'agent_stop: stop the run and every running descendant' })
  async agentStop(
    @Args('runId', { type: () => ID }) runId: string,
    @Args('reason', { type: () => String, nullable: true }) reason?: string,
  ): Promise<RunStopResult> {
    const body = validated(stopRunSchema, { reason: reason ?? undefined });
    const stopped = await this.commandBus.execute(new StopRun(runId, API_CALLER, body.reason));
    return { run: await this.run(runId), stoppedRuns: stopped.stopped_runs };
  }

  @Mutation(() => Run, { description: 'agent_run with run_id: resume an interrupted or stopped run on its own CLI session' })
  async resumeRun(
    @Args('runId', { type: () => ID }) runId: string,
    @Args('prompt', { type: () => String, nullable: true }) prompt?: string,
    @Args('background', { type: () => Boolean, nullable: true }) background?: boolean,
  ) {
    const body = validated(resumeRunSchema, { prompt: prompt ?? undefined, background: background ?? undefined });
    await this.commandBus.execute(new StartRun({ runId, prompt: body.prompt, background: body.background }, API_CALLER));
    return this.run(runId);
  }

  /**
   * The run's events and its thread's (CLI events included); with includeDescendants, those of every run
   * below it too, runs started meanwhile included. Replayed after `after` (a global position; unset:
   * from the run's start), then live: each once, in log order.
   */
  @Subscription(() => StoredEventModel, {
    description: "A run's events (and its descendants'), replayed from a global position then live, each once",
    resolve: (event: StoredEventModel) => event,
  })
  async runEvents(
    @Args('runId', { type: () => ID }) runId: string,
    @Args('includeDescendants', { type: () => Boolean, defaultValue: false }) includeDescendants = false,
    @Args('after', { type: () => Int, nullable: true, description: 'Global position; unset: from the run start' }) after?: number,
  ) {
    if (after !== undefined && after !== null) inRange('after', after, 0, Number.MAX_SAFE_INTEGER);
    const events = await this.queryBus.execute(new WatchRunEvents(runId, includeDescendants, after ?? undefined));
    return observableToAsyncIterator(events);
  }

  private async run(runId: string) {
    const [row] = await this.queryBus.execute(new GetRunsById([runId]));
    if (!row) throw new UnknownRunError(runId);
    return runOf(row);
  }
}
