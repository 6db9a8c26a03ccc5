import { Field, ID, InputType, ObjectType } from '@nestjs/graphql';
import { ActorModel, JsonScalar, TimestampScalar, PageInfo } from '../../graphql-api';

/** issue 14: a permission request that waited (or waits) for a person. */
@ObjectType()
export class Approval {
  @Field(() => ID) id!: string;
  @Field({ description: 'pending, decided or expired' }) status!: string;
  @Field({ description: 'shell, write, read, url, mcp, custom-tool, memory' }) kind!: string;
  @Field(() => String, { nullable: true }) toolName!: string | null;
  @Field(() => JsonScalar, { nullable: true, description: "the CLI's request as it came" }) arguments!: unknown;
  @Field() sessionId!: string;
  @Field(() => String, { nullable: true }) childSessionId!: string | null;
  @Field(() => String, { nullable: true }) agentName!: string | null;
  @Field(() => String, { nullable: true }) runId!: string | null;
  @Field(() => String, { nullable: true }) rootRunId!: string | null;
  @Field(() => [String], { description: 'agent names from the root of the team down to the one that asked' }) lineagePath!: string[];
  @Field(() => TimestampScalar) requestedAt!: string;
  @Field(() => TimestampScalar, { nullable: true }) decidedAt!: string | null;
  @Field(() => String, { nullable: true, description: 'approve or deny' }) decision!: string | null;
  @Field(() => String, { nullable: true, description: 'once or session' }) scope!: string | null;
  @Field(() => String, { nullable: true, description: 'Where it was decided from: console, api, or timeout, expired' }) decidedBy!: string | null;
  @Field(() => ActorModel, { nullable: true, description: 'Who decided: a person, a key, or the system (a timeout, an expiry); null while pending' })
  decider!: ActorModel | null;
  @Field(() => String, { nullable: true, description: "The decider's name (decider.name)" }) decidedByName!: string | null;
  @Field(() => String, { nullable: true }) reason!: string | null;
}

@ObjectType()
export class ApprovalEdge {
  @Field() cursor!: string;
  @Field(() => Approval) node!: Approval;
}

@ObjectType()
export class ApprovalConnection {
  @Field(() => [ApprovalEdge]) edges!: ApprovalEdge[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
}

@InputType()
export class ApprovalFilterInput {
  @Field({ nullable: true, description: 'pending, decided or expired' }) status?: string;
  @Field({ nullable: true }) sessionId?: string;
  @Field({ nullable: true }) rootRunId?: string;
  @Field({ nullable: true, description: 'the agent that asked' }) agentId?: string;
}

@InputType()
export class DecideApprovalInput {
  @Field({ description: 'approve or deny' }) decision!: string;
  @Field({ nullable: true, description: 'once (default) or session: that kind (and tool, for custom tools) for the rest of the session' })
  scope?: string;
  @Field({ nullable: true, description: 'the model reads it when denied' }) reason?: string;
}
