import { Field, ObjectType } from '@nestjs/graphql';

@ObjectType('Actor', {
  description:
    'issue 27: who did something: a signed-in person (user), a named key or the operator (key), an agent through a tool (agent), Switchboard itself (system)',
})
export class ActorModel {
  @Field({ description: 'user, key, agent or system' }) kind!: string;
  @Field({ description: "Stable id: the person's subject, the key's id, operator, local, the agent's session; api for what was recorded before actors" })
  id!: string;
  @Field({ description: "What people read: the person's name, the key's name, the agent's name" }) name!: string;
  @Field(() => [String], { nullable: true, description: "An agent's lineage: agent names from the top of the team down to it" }) lineage?: string[];
  @Field(() => String, { nullable: true, description: "Where a person's or key's request came from: console, api or mcp" }) via?: string;
}
