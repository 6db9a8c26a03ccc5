import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';

/** issue 26: the first difference between what an agent asks in a replay and what it asked then. */
@ObjectType({ description: 'Where a replayed call first differs from its original: the part, where in it, and both versions (cut to 4 KB each)' })
export class ReplayDivergence {
  @Field({ description: 'system (prompt), tools (tool list), messages (a message or tool result), model, or missing (no such call then)' })
  part!: string;
  @Field(() => String, { nullable: true, description: 'Where in that part: a message index, a tool name, a character' }) at?: string;
  @Field(() => String, { nullable: true, description: 'What the original call had there' }) original?: string;
  @Field(() => String, { nullable: true, description: 'What the replayed call has there' }) now?: string;
}

/** issue 26: a call of a replay or fork session against its original. */
@ObjectType({ description: 'How a call of a replay or fork was answered, and how it compares with the original call' })
export class ModelCallReplay {
  @Field({ description: 'record: the original answer was played back, nothing reached the model; live: sent to the model' }) source!: string;
  @Field(() => String, { nullable: true, description: 'The original call it was matched to (same agent, same position)' }) originalCallId!: string | null;
  @Field(() => Int, { nullable: true, description: "1-based position among its agent's calls in its session" }) position!: number | null;
  @Field(() => ReplayDivergence, { nullable: true, description: "The first difference from the original's request; null when none" })
  divergence!: ReplayDivergence | null;
  @Field({ description: 'The fork point: the message was appended here, the overrides applied from here' }) forkPoint!: boolean;
}

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
  @Field(() => ModelCallReplay, { nullable: true, description: 'Set on a call of a replay or fork: where its answer came from' })
  replay!: ModelCallReplay | null;
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
    description: 'Sum of the known costs, in currency; null when no call has a known cost (unknown, never 0)',
  })
  cost!: number | null;
  @Field(() => String, { nullable: true }) currency!: string | null;
  @Field(() => Int, { description: 'Calls of unknown cost (no price for their model, or no usage reported): left out of cost' }) unpricedCalls!: number;
}

@ObjectType({ description: 'Whether the Copilot CLI hands its model calls to Switchboard; when not, no call is recorded and reason says why' })
export class ModelRouteState {
  @Field() routed!: boolean;
  @Field(() => String, { nullable: true }) reason!: string | null;
}
