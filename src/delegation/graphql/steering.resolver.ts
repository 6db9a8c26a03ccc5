import { CommandBus } from '@nestjs/cqrs';
import { Args, Context, Field, ID, Mutation, ObjectType, Resolver } from '@nestjs/graphql';
import { CLIENT_HEADER, personDecisionSource } from '../../common';
import { SteerRun } from '../commands/steer-run/steer-run.command';
import { SteerSession, steerRunSchema, steerSchema } from '../../sessions';
import { type GraphqlContext, validated } from '../../graphql-api';

@ObjectType({ description: "A steer the CLI took: the agent's next model request carries the message (recorded as session.steered)" })
export class AgentSteered {
  @Field(() => ID) sessionId!: string;
  @Field({ description: 'main (the session’s own agent) or subagent (one of its CLI sub-agents)' }) target!: string;
  @Field(() => ID, { nullable: true, description: "The CLI sub-agent's agentId (its launch's childSessionId)" }) subagentId?: string;
  @Field() agentName!: string;
  @Field(() => ID, { nullable: true, description: 'The run steered, for steerRun' }) runId?: string;
  @Field({ description: 'steered' }) status!: string;
}

/** Steering a running agent (issue 26), as REST: POST /api/sessions/:id/steer and POST /api/runs/:id/steer. */
@Resolver()
export class SteeringResolver {
  constructor(private readonly commandBus: CommandBus) {}

  @Mutation(() => AgentSteered, {
    description:
      'Steer a running agent of the session (its main agent, or the CLI sub-agent subagentId): its next model request carries the message; invalid_state when it is not running',
  })
  steerSession(
    @Args('sessionId', { type: () => ID }) sessionId: string,
    @Args('message') message: string,
    @Args('subagentId', { type: () => ID, nullable: true }) subagentId: string | undefined,
    @Context() context: GraphqlContext,
  ): Promise<AgentSteered> {
    const body = validated(steerSchema, { message, subagentId: subagentId ?? undefined });
    const actor = personDecisionSource(context.req?.headers?.[CLIENT_HEADER]);
    return this.commandBus.execute(new SteerSession(sessionId, body.message, actor, { subagentId: body.subagentId }));
  }

  @Mutation(() => AgentSteered, {
    description: "Steer a running run: its agent's next model request carries the message; invalid_state when the run is not running",
  })
  steerRun(@Args('runId', { type: () => ID }) runId: string, @Args('message') message: string, @Context() context: GraphqlContext): Promise<AgentSteered> {
    const body = validated(steerRunSchema, { message });
    const actor = personDecisionSource(context.req?.headers?.[CLIENT_HEADER]);
    return this.commandBus.execute(new SteerRun(runId, body.message, actor));
  }
}
