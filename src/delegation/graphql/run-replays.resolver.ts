import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Args, Context, Field, ID, InputType, Mutation, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { RunLoaders, type RunRow, ForkedFrom, Run, RunReplayInfo } from '../../run-lineage';
import { CLIENT_HEADER, personDecisionSource } from '../../approvals';
import { ForkRun } from '../commands/fork-run/fork-run.command';
import { ReplayRun } from '../commands/replay-run/replay-run.command';
import { GetRunReplay } from '../queries/get-run-replay/get-run-replay.query';
import { UnknownRunError } from '../run.errors';
import { forkRunSchema, replayRunSchema } from '../run-requests';
import { callerTrace } from '../../common';
import { type GraphqlContext, validated } from '../../graphql-api';
import { runOf } from './runs.resolver';

@InputType({ description: "issue 26: a fork's change to one agent from the fork point on" })
export class AgentOverrideInput {
  @Field() agentName!: string;
  @Field(() => String, { nullable: true }) prompt?: string;
  @Field(() => String, { nullable: true }) model?: string;
}

/** issue 26: replay and fork of an ended run (the REST routes' handlers), and a run's replay lineage. */
@Resolver(() => Run)
export class RunReplaysResolver {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Mutation(() => Run, {
    description: 'Replay an ended run: a new root run answered from its record (model calls and webhook tool calls); not_replayable when it cannot be',
  })
  async replayRun(
    @Args('runId', { type: () => ID }) runId: string,
    @Context() context: GraphqlContext,
    @Args('onDivergence', { type: () => String, nullable: true, description: 'stop (default) or live' }) onDivergence?: string,
    @Args('allowSideEffects', { type: () => Boolean, nullable: true }) allowSideEffects?: boolean,
    @Args('background', { type: () => Boolean, nullable: true }) background?: boolean,
  ) {
    const body = validated(replayRunSchema, {
      onDivergence: onDivergence ?? undefined,
      allowSideEffects: allowSideEffects ?? undefined,
      background: background ?? undefined,
    });
    const started = await this.commandBus.execute(
      new ReplayRun(runId, body, personDecisionSource(context.req?.headers?.[CLIENT_HEADER]), callerTrace(context.req?.headers)),
    );
    return this.run(context, started.run_id);
  }

  @Mutation(() => Run, { description: 'Fork an ended run at one of its model calls: the calls before it from the record, it and later ones live' })
  async forkRun(
    @Args('runId', { type: () => ID }) runId: string,
    @Args('fromModelCall', { type: () => ID }) fromModelCall: string,
    @Context() context: GraphqlContext,
    @Args('message', { type: () => String, nullable: true }) message?: string,
    @Args('agentOverrides', { type: () => [AgentOverrideInput], nullable: true }) agentOverrides?: AgentOverrideInput[],
    @Args('background', { type: () => Boolean, nullable: true }) background?: boolean,
  ) {
    const body = validated(forkRunSchema, {
      fromModelCall,
      message: message ?? undefined,
      agentOverrides: agentOverrides
        ? Object.fromEntries(
            agentOverrides.map((o) => [
              o.agentName,
              { ...(o.prompt != null ? { prompt: o.prompt } : {}), ...(o.model != null ? { model: o.model } : {}) },
            ]),
          )
        : undefined,
      background: background ?? undefined,
    });
    const started = await this.commandBus.execute(
      new ForkRun(runId, body, personDecisionSource(context.req?.headers?.[CLIENT_HEADER]), callerTrace(context.req?.headers)),
    );
    return this.run(context, started.run_id);
  }

  @ResolveField(() => ForkedFrom, { nullable: true, description: "issue 26: a fork's root: its original run and the call it went live from" })
  forkedFrom(@Parent() run: RunRow): ForkedFrom | null {
    return run.forkedFromCall && run.replayOf ? { runId: run.replayOf, modelCallId: run.forkedFromCall } : null;
  }

  @ResolveField(() => RunReplayInfo, { nullable: true, description: 'issue 26: how this run plays its original back, with the first divergence' })
  async replay(@Parent() run: RunRow): Promise<RunReplayInfo | null> {
    if (!run.replayMode) return null;
    const { replay } = await this.queryBus.execute(new GetRunReplay(run.runId));
    if (!replay) return null;
    return {
      mode: replay.mode,
      onDivergence: replay.on_divergence ?? null,
      allowSideEffects: replay.allow_side_effects ?? null,
      message: replay.message ?? null,
      agentOverrides: replay.agent_overrides ?? null,
      requestedBy: replay.requested_by ?? null,
      divergence: replay.divergence ?? null,
    };
  }

  @ResolveField(() => [Run], { description: 'issue 26: the runs that replay or fork this one, oldest first' })
  async replays(@Parent() run: RunRow) {
    const { replays } = await this.queryBus.execute(new GetRunReplay(run.runId));
    return replays.map(runOf);
  }

  private async run({ loaders }: GraphqlContext, runId: string) {
    const row = await loaders.of(RunLoaders).runById.load(runId);
    if (!row) throw new UnknownRunError(runId);
    return runOf(row);
  }
}
