import { Field, ID, ObjectType } from '@nestjs/graphql';

@ObjectType('SignInSession', { description: "A person's sign-in session to the console (never its cookie)" })
export class SignInSessionModel {
  @Field(() => ID, { description: 'The id DELETE /api/sign-in-sessions/:id and revokeSignInSession take' }) id!: string;
  @Field({ description: "The person: <issuer>#<sub>, the principal's id" }) subject!: string;
  @Field() name!: string;
  @Field({ description: 'viewer, operator, approver or admin' }) role!: string;
  @Field() createdAt!: string;
  @Field() expiresAt!: string;
  @Field(() => String, { nullable: true, description: 'When it was signed out or revoked' }) revokedAt!: string | null;
  @Field({ description: 'active, expired or revoked (signed out or revoked by an admin)' }) state!: string;
}
