import { Field, ObjectType } from '@nestjs/graphql';

@ObjectType('Principal', {
  description: 'Who calls: a signed-in person, a named key, the operator (bootstrap token) or the local admin (nothing configured)',
})
export class PrincipalModel {
  @Field({ description: 'user, key, operator or local' }) kind!: string;
  @Field({ description: "Stable id: the OIDC subject, the key's id, operator, local" }) id!: string;
  @Field({ description: "What people read: the person's name, the key's name" }) name!: string;
  @Field({ description: 'viewer, operator, approver or admin' }) role!: string;
  @Field({ description: 'How the request proved it: cookie, bearer or none' }) via!: string;
  @Field(() => [String], { description: 'What the role may do: read, operate, approve, administer' }) may!: string[];
}
