import { Field, InputType, Int, ObjectType } from '@nestjs/graphql';
import { TimestampScalar, PageInfo } from '../../graphql-api';

@ObjectType({ description: 'One event of the log as the audit sees it: who, what it concerns, when' })
export class AuditEntry {
  @Field(() => Int) position!: number;
  @Field() streamId!: string;
  @Field() eventType!: string;
  @Field(() => String, { nullable: true, description: 'The client string recorded: console, api, switchboard, copilot-cli...' }) actor!: string | null;
  @Field({ description: 'Who did it: user, key, agent or system' }) actorKind!: string;
  @Field({ description: "The actor's id (api for what was recorded before actors)" }) actorId!: string;
  @Field({ description: "The actor's name" }) actorName!: string;
  @Field(() => String, { nullable: true }) correlationId!: string | null;
  @Field(() => String, { nullable: true }) causationId!: string | null;
  @Field() recordedAt!: string;
  @Field(() => String, { nullable: true }) sessionId!: string | null;
  @Field(() => String, { nullable: true }) runId!: string | null;
  @Field(() => String, { nullable: true }) agentId!: string | null;
  @Field(() => String, { nullable: true }) toolName!: string | null;
  @Field(() => String, { nullable: true }) decision!: string | null;
}

@ObjectType()
export class AuditEdge {
  @Field() cursor!: string;
  @Field(() => AuditEntry) node!: AuditEntry;
}

@ObjectType()
export class AuditConnection {
  @Field(() => [AuditEdge]) edges!: AuditEdge[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
}

@InputType()
export class AuditFilterInput {
  @Field({ nullable: true }) sessionId?: string;
  @Field({ nullable: true }) runId?: string;
  @Field({ nullable: true }) agentId?: string;
  @Field({ nullable: true }) toolName?: string;
  @Field({ nullable: true, description: 'approved, denied, success, failure, answered...' }) decision?: string;
  @Field({ nullable: true }) eventType?: string;
  @Field({ nullable: true, description: "Who did it: an actor's id (a key's id, a person's subject, operator, local, api)" }) actor?: string;
  @Field({ nullable: true, description: 'user, key, agent or system' }) actorKind?: string;
  @Field({ nullable: true, description: 'the type before its first dot: permission, approval, session, cli...' }) eventKind?: string;
  @Field({ nullable: true, description: "true: leave out the CLI's own cli.* events" }) hideCli?: boolean;
  @Field(() => TimestampScalar, { nullable: true, description: 'inclusive' }) from?: string;
  @Field(() => TimestampScalar, { nullable: true, description: 'exclusive' }) to?: string;
}
