import { Field, ID, InputType, ObjectType } from '@nestjs/graphql';

@ObjectType('ApiKey', { description: 'A named API key as lists show it: never the key itself' })
export class ApiKeyModel {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field({ description: 'viewer, operator, approver or admin' }) role!: string;
  @Field({ description: 'The first characters of the key (sbk_ and 8 more)' }) prefix!: string;
  @Field(() => String, { nullable: true }) expiresAt!: string | null;
  @Field() createdBy!: string;
  @Field() createdAt!: string;
  @Field(() => String, { nullable: true }) revokedAt!: string | null;
  @Field(() => String, { nullable: true }) revokedBy!: string | null;
  @Field(() => String, { nullable: true, description: 'Written at most once a minute' }) lastUsedAt!: string | null;
}

@ObjectType('CreatedApiKey')
export class CreatedApiKeyModel {
  @Field({ description: 'The key, shown this once: it is stored only hashed' }) key!: string;
  @Field(() => ApiKeyModel) apiKey!: ApiKeyModel;
}

@InputType()
export class CreateApiKeyInputModel {
  @Field() name!: string;
  @Field({ description: 'viewer, operator, approver or admin' }) role!: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601; none: never expires' }) expiresAt?: string;
}
