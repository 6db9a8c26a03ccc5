import { Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';

@ObjectType()
export class SystemMessage {
  @Field({ description: 'append or replace' }) mode!: string;
  @Field() content!: string;
}

@ObjectType()
export class AgentTools {
  @Field(() => [String]) custom!: string[];
  @Field(() => [String]) builtin!: string[];
  @Field(() => [String]) excludedBuiltin!: string[];
}

@ObjectType()
export class SubAgentProblem {
  @Field() id!: string;
  @Field() reason!: string;
}

@ObjectType({ description: 'An agent of the library, with whether it can be a sub-agent and why not' })
export class Agent {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field() description!: string;
  @Field() icon!: string;
  @Field(() => SystemMessage) systemMessage!: SystemMessage;
  @Field(() => String, { nullable: true }) model!: string | null;
  @Field(() => AgentTools) tools!: AgentTools;
  @Field(() => [String]) mcpServers!: string[];
  @Field(() => [String]) subAgents!: string[];
  @Field(() => Int) version!: number;
  @Field() createdAt!: string;
  @Field() updatedAt!: string;
  @Field({ description: 'Can it be used as a sub-agent' }) composable!: boolean;
  @Field(() => [String], { description: 'Why not, each saying what to change' }) composableReasons!: string[];
  @Field(() => [SubAgentProblem], { description: 'Its own sub-agents that are unknown or no longer eligible' })
  subAgentProblems!: SubAgentProblem[];
}

@ObjectType()
export class DeletedAgent {
  @Field(() => ID) id!: string;
  @Field() deleted!: boolean;
}

@ObjectType()
export class ImportedAgents {
  @Field(() => [String]) created!: string[];
  @Field(() => [String]) updated!: string[];
  @Field(() => [String]) unchanged!: string[];
}

@InputType()
export class SystemMessageInput {
  @Field({ nullable: true, description: 'append (default) or replace' }) mode?: string;
  @Field({ nullable: true }) content?: string;
}

@InputType()
export class AgentToolsInput {
  @Field(() => [String], { nullable: true }) custom?: string[];
  @Field(() => [String], { nullable: true }) builtin?: string[];
  @Field(() => [String], { nullable: true }) excludedBuiltin?: string[];
}

/** The agent JSON format's fields in GraphQL's camelCase; checked by the same schema as REST. */
@InputType()
export class AgentFieldsInput {
  @Field() name!: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true }) icon?: string;
  @Field(() => SystemMessageInput, { nullable: true }) systemMessage?: SystemMessageInput;
  @Field(() => String, { nullable: true }) model?: string | null;
  @Field(() => AgentToolsInput, { nullable: true }) tools?: AgentToolsInput;
  @Field(() => [String], { nullable: true }) mcpServers?: string[];
  @Field(() => [String], { nullable: true }) subAgents?: string[];
}

@InputType()
export class CreateAgentInput extends AgentFieldsInput {
  @Field(() => ID, { nullable: true, description: 'A slug; derived from the name when not given' }) id?: string;
}

@InputType()
export class AgentFileInput {
  @Field() name!: string;
  @Field() content!: string;
}
