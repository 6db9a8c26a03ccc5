import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';

/** issue 25: one model call an agent made through Switchboard, with its lineage, usage and cost. */
@ObjectType({ description: 'A model call an agent made through Switchboard: where it sits, what it asked, what it spent' })
export class ModelCall {
  @Field(() => ID) callId!: string;
  @Field({ description: 'in_flight, succeeded, failed, cancelled, refused or interrupted' }) status!: string;
  @Field({ description: 'The CLI session that made it: a session, or a run thread sub-agent-<runId>' }) sessionId!: string;
  @Field({ description: "The agent's name: the session's or run's agent, or the CLI sub-agent's" }) agentName!: string;
  @Field(() => String, { nullable: true, description: 'The CLI sub-agent (task) that made it' }) subagentId!: string | null;
  @Field(() => String, { nullable: true }) runId!: string | null;
  @Field(() => String, { nullable: true }) rootRunId!: string | null;
  @Field(() => [String], { description: 'Agent names from the top of the team down to the caller' }) lineagePath!: string[];
  @Field({ description: 'openai, azure, anthropic or capi' }) provider!: string;
  @Field() model!: string;
  @Field(() => String, { nullable: true, description: "The CLI's kind of call: conversation-agent, conversation-subagent..." }) interactionType!:
    string | null;
  @Field(() => String, { nullable: true, description: 'user when a message started it, agent when the loop went on' }) initiator!: string | null;
  @Field(() => Int) requestBytes!: number;
  @Field(() => Int) messageCount!: number;
  @Field(() => Int) toolCount!: number;
  @Field() stream!: boolean;
  @Field(() => Int, { nullable: true, description: "The provider's HTTP status" }) httpStatus!: number | null;
  @Field(() => Int, { nullable: true, description: "Milliseconds to the provider's first byte" }) ttfbMs!: number | null;
  @Field(() => Int, { nullable: true }) durationMs!: number | null;
  @Field(() => Int, { nullable: true }) inputTokens!: number | null;
  @Field(() => Int, { nullable: true }) outputTokens!: number | null;
  @Field(() => Int, { nullable: true }) cachedInputTokens!: number | null;
  @Field(() => Int, { nullable: true }) reasoningTokens!: number | null;
  @Field(() => String, { nullable: true, description: "The answer's id (chatcmpl-...)" }) responseId!: string | null;
  @Field(() => String, { nullable: true }) finishReason!: string | null;
  @Field(() => Float, { nullable: true, description: 'In currency; null when the model has no price (unknown, never 0)' }) cost!: number | null;
  @Field(() => String, { nullable: true }) currency!: string | null;
  @Field(() => String, { nullable: true, description: 'Why it failed, was refused or interrupted' }) error!: string | null;
  @Field() startedAt!: string;
  @Field(() => String, { nullable: true }) endedAt!: string | null;
  @Field(() => String, { nullable: true, description: 'The request body as sent upstream; null unless SWITCHBOARD_MODEL_CONTENT=full' })
  request!: string | null;
  @Field(() => String, { nullable: true, description: 'The answer as the CLI received it; null unless SWITCHBOARD_MODEL_CONTENT=full' })
  answer!: string | null;
  @Field({ description: 'The kept request was cut at SWITCHBOARD_MODEL_CONTENT_MAX_BYTES' }) requestTruncated!: boolean;
  @Field({ description: 'The kept answer was cut at SWITCHBOARD_MODEL_CONTENT_MAX_BYTES' }) answerTruncated!: boolean;
}

@ObjectType({ description: 'A page of model calls, oldest first' })
export class ModelCallPage {
  @Field(() => [ModelCall]) calls!: ModelCall[];
  @Field(() => String, { nullable: true, description: 'Pass as after for the next page; null on the last one' }) nextCursor!: string | null;
}

@ObjectType({ description: 'Tokens and cost of the calls that ended (in flight and refused ones are not counted)' })
export class ModelCallSpend {
  @Field(() => Int) calls!: number;
  @Field(() => Int) inputTokens!: number;
  @Field(() => Int) outputTokens!: number;
  @Field(() => Float, {
    nullable: true,
    description: 'Sum of the known costs, in currency; null when calls spent tokens and none has a price (unknown, never 0)',
  })
  cost!: number | null;
  @Field(() => String, { nullable: true }) currency!: string | null;
  @Field(() => Int, { description: 'Calls that reported usage but whose model has no price: left out of cost' }) unpricedCalls!: number;
}

@ObjectType({ description: 'Whether the Copilot CLI hands its model calls to Switchboard; when not, no call is recorded and reason says why' })
export class ModelRouteState {
  @Field() routed!: boolean;
  @Field(() => String, { nullable: true }) reason!: string | null;
}
