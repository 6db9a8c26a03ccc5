import { CommandBus } from '@nestjs/cqrs';
import { Args, Context, ID, Mutation, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { CLIENT_HEADER, personDecisionSource } from '../../approvals';
import { PauseWork, type PauseResult, pauseSchema } from '../commands/pause/pause.command';
import type { PauseTarget } from '../../event-store';
import { UnpauseWork, type UnpauseResult } from '../commands/unpause/unpause.command';
import { PauseHolds, type PauseView } from '../pause-holds';
import { type GraphqlContext, validated } from '../../graphql-api';
import { PauseModel, PauseResultModel, UnpauseResultModel } from './pause.model';
import { Run } from '../../run-lineage';
import { Session } from '../../sessions';

export function pauseOf(view: PauseView): PauseModel {
  return { ...view, runId: view.runId ?? null, sessionId: view.sessionId ?? null, reason: view.reason ?? null };
}

const pauseOrNull = (view: PauseView | undefined): PauseModel | null => (view ? pauseOf(view) : null);
const pauseResultOf = (result: PauseResult): PauseResultModel => ({ ...result, pause: pauseOf(result.pause) });
const actorOf = (context: GraphqlContext) => personDecisionSource(context.req?.headers?.[CLIENT_HEADER]);

/** issue 26: pause and unpause as mutations (the same handlers as REST). */
@Resolver()
export class PauseCommandsResolver {
  constructor(private readonly commandBus: CommandBus) {}

  @Mutation(() => PauseResultModel, {
    description: 'Hold the run and its subtree at the next step (a running tool finishes); not_found, invalid_state when not running or already paused',
  })
  async pauseRun(
    @Args('runId', { type: () => ID }) runId: string,
    @Context() context: GraphqlContext,
    @Args('reason', { type: () => String, nullable: true }) reason?: string,
  ) {
    return this.pause('run', runId, context, reason);
  }

  @Mutation(() => UnpauseResultModel, { description: 'Release a paused run; invalid_state when it is not paused' })
  unpauseRun(@Args('runId', { type: () => ID }) runId: string, @Context() context: GraphqlContext): Promise<UnpauseResult> {
    return this.commandBus.execute(new UnpauseWork('run', runId, actorOf(context)));
  }

  @Mutation(() => PauseResultModel, { description: 'Hold a session: its main agent, its CLI sub-agents and every run it started' })
  async pauseSession(
    @Args('sessionId', { type: () => ID }) sessionId: string,
    @Context() context: GraphqlContext,
    @Args('reason', { type: () => String, nullable: true }) reason?: string,
  ) {
    return this.pause('session', sessionId, context, reason);
  }

  @Mutation(() => UnpauseResultModel, { description: 'Release a paused session; invalid_state when it is not paused' })
  unpauseSession(@Args('sessionId', { type: () => ID }) sessionId: string, @Context() context: GraphqlContext): Promise<UnpauseResult> {
    return this.commandBus.execute(new UnpauseWork('session', sessionId, actorOf(context)));
  }

  /** The reason checked as REST checks it, then the same command. */
  private async pause(target: PauseTarget, id: string, context: GraphqlContext, reason: string | undefined): Promise<PauseResultModel> {
    const body = validated(pauseSchema, { reason: reason ?? undefined });
    return pauseResultOf(await this.commandBus.execute(new PauseWork(target, id, actorOf(context), body.reason)));
  }
}

/** A run's status says paused while a pause over it holds it; its `pause` says since when, by whom, and which run or session was paused. */
@Resolver(() => Run)
export class RunPauseResolver {
  constructor(private readonly holds: PauseHolds) {}

  @ResolveField(() => String, { description: 'running, paused, completed, failed, stopped or interrupted' })
  async status(@Parent() run: Run): Promise<string> {
    if (run.status !== 'running' || !this.holds.anyPaused()) return run.status;
    return (await this.holds.pauseOverRun(run.runId)) ? 'paused' : run.status;
  }

  @ResolveField(() => PauseModel, {
    nullable: true,
    description: 'The pause over it (its own, an ancestor run’s, or its tree’s session’s); null when none',
  })
  async pause(@Parent() run: Run): Promise<PauseModel | null> {
    return pauseOrNull(await this.holds.pauseOverRun(run.runId));
  }
}

@Resolver(() => Session)
export class SessionPauseResolver {
  constructor(private readonly holds: PauseHolds) {}

  @ResolveField(() => PauseModel, { nullable: true, description: 'The pause over it (its own, or for a run’s session, over that run); null when none' })
  async pause(@Parent() session: Session): Promise<PauseModel | null> {
    return pauseOrNull(await this.holds.pauseOverSession(session.sessionId));
  }
}
