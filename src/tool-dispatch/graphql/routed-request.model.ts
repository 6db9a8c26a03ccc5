import { Field, Int, ObjectType } from '@nestjs/graphql';
import { JsonScalar } from '../../graphql-api';

@ObjectType({ description: 'A tool call or permission decision routed for a run thread or its CLI-native sub-agents' })
export class RoutedRequest {
  @Field(() => Int) position!: number;
  @Field({ description: 'tool_call.routed, tool_call.denied, permission.decided...' }) kind!: string;
  @Field(() => String, { nullable: true }) childSessionId!: string | null;
  @Field(() => String, { nullable: true }) agentName!: string | null;
  @Field(() => String, { nullable: true }) toolName!: string | null;
  @Field(() => JsonScalar, { nullable: true }) arguments!: unknown;
  @Field(() => JsonScalar, { nullable: true }) result!: unknown;
  @Field({ description: 'approved, denied, success, failure...' }) outcome!: string;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => Int, { nullable: true }) latencyMs!: number | null;
  @Field() recordedAt!: string;
}
