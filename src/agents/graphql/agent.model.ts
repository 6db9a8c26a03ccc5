import { Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { BudgetLimits, RunBudgetInput } from '../../graphql-api';

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

@ObjectType({ description: 'A hook handler: the webhook a hooks.invoke of this type is sent to' })
export class AgentHook {
  @Field({
    description:
      'preToolUse, postToolUse, postToolUseFailure, userPromptSubmitted, sessionStart, sessionEnd, errorOccurred, agentStop, subagentStart, subagentStop',
  })
  type!: string;
  @Field() url!: string;
  @Field(() => String, { nullable: true, description: 'open or closed; unset: closed for preToolUse, open for the others' })
  failure!: string | null;
}

@ObjectType({ description: "An agent's default permission policy for its sessions (kinds not listed are denied; its sessions' own tools approved)" })
export class AgentPermissionPolicy {
  @Field(() => [String], { description: 'Kinds approved without asking' }) allowKinds!: string[];
  @Field(() => [String], { description: 'Kinds that wait for a person (ask beats allow)' }) askKinds!: string[];
  @Field(() => [String], { description: 'Tool names that wait for a person' }) askTools!: string[];
}

@ObjectType({ description: 'issue 42: the git repository an agent’s sessions work in, a worktree of their own' })
export class AgentWorkspace {
  @Field({ description: 'A repository in SWITCHBOARD_REPOSITORIES (or a folder of them)' }) repository!: string;
  @Field(() => String, { nullable: true, description: "The ref to start from (unset: the repository's HEAD)" }) ref!: string | null;
  @Field(() => String, { nullable: true, description: 'auto or manual: whether a completed run is merged into its lead at once' })
  merge!: string | null;
}

@InputType()
export class AgentWorkspaceInput {
  @Field() repository!: string;
  @Field(() => String, { nullable: true }) ref?: string | null;
  @Field(() => String, { nullable: true, description: 'auto (the default) or manual' }) merge?: string | null;
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
  @Field(() => [String], { nullable: true, description: 'Delegation policy: the only agents its runs may start (unset: any)' })
  allowedAgents!: string[] | null;
  @Field(() => [String], { nullable: true, description: 'Delegation policy: agents its runs may not start' })
  excludedAgents!: string[] | null;
  @Field(() => [AgentHook], { nullable: true, description: 'Hook webhooks for sessions and runs it is the main agent of (unset: none)' })
  hooks!: AgentHook[] | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Session default: its sessions get agent_run, agent_stop, agent_output (unset: on when it has sub-agents)',
  })
  delegation!: boolean | null;
  @Field(() => AgentPermissionPolicy, { nullable: true, description: "Session default (unset: the service's default policy)" })
  permissionPolicy!: AgentPermissionPolicy | null;
  @Field(() => BudgetLimits, { nullable: true, description: 'Session default: the budget over the runs its sessions start (unset: none)' })
  budget!: BudgetLimits | null;
  @Field(() => AgentWorkspace, { nullable: true, description: 'Session default: the repository its sessions work in (unset: none)' })
  workspace!: AgentWorkspace | null;
  @Field(() => String, { nullable: true, description: 'issue 43: the A2A agent card URL of a remote agent (it runs on that service); null: it runs here' })
  remoteA2a!: string | null;
  @Field(() => Int) version!: number;
  @Field() createdAt!: string;
  @Field() updatedAt!: string;
  @Field({ description: 'Can it be used as a sub-agent' }) composable!: boolean;
  @Field(() => [String], { description: 'Why not, each saying what to change' }) composableReasons!: string[];
  @Field(() => [SubAgentProblem], { description: 'Its own sub-agents that are unknown or no longer eligible' })
  subAgentProblems!: SubAgentProblem[];
  @Field(() => [String], { description: 'The agents whose team includes this one (their subAgents list it)' })
  includedIn!: string[];
}

@ObjectType({ description: "What the library says of an editor's draft before it is saved (the rules of saving)" })
export class AgentDraftCheck {
  @Field() composable!: boolean;
  @Field(() => [String]) composableReasons!: string[];
  @Field(() => [SubAgentProblem]) subAgentProblems!: SubAgentProblem[];
}

@ObjectType({ description: "An MCP server of the operator's registry (SWITCHBOARD_MCP_CONFIG), by name; its config stays on the server" })
export class McpServer {
  @Field() name!: string;
  @Field({ description: 'local, stdio, http, sse (as configured)' }) type!: string;
}

@ObjectType()
export class McpServerList {
  @Field(() => [McpServer]) servers!: McpServer[];
  @Field(() => String, { nullable: true, description: 'Set when the registry file cannot be read' }) problem!: string | null;
}

@ObjectType()
export class AgentFile {
  @Field({ description: '<id>.json' }) name!: string;
  @Field({ description: 'The agent JSON format' }) content!: string;
}

@ObjectType({ description: 'A change to the agent library, whoever made it' })
export class AgentLibraryChange {
  @Field(() => ID) agentId!: string;
  @Field({ description: 'created, updated or deleted' }) change!: string;
  @Field(() => Int, { description: "The agent's version after the change" }) version!: number;
  @Field(() => Int) position!: number;
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
export class AgentHookInput {
  @Field() type!: string;
  @Field() url!: string;
  @Field(() => String, { nullable: true }) failure?: string | null;
}

@InputType()
export class AgentPermissionPolicyInput {
  @Field(() => [String], { nullable: true, description: 'shell, write, read, url, mcp, custom-tool, memory' }) allowKinds?: string[];
  @Field(() => [String], { nullable: true }) askKinds?: string[];
  @Field(() => [String], { nullable: true }) askTools?: string[];
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
  @Field(() => [String], { nullable: true, description: 'Unset or null: any agent' }) allowedAgents?: string[] | null;
  @Field(() => [String], { nullable: true }) excludedAgents?: string[] | null;
  @Field(() => [AgentHookInput], { nullable: true, description: 'Unset or null: no hooks' }) hooks?: AgentHookInput[] | null;
  @Field(() => Boolean, { nullable: true, description: 'Session default; unset or null: on when it has sub-agents' }) delegation?: boolean | null;
  @Field(() => AgentPermissionPolicyInput, { nullable: true, description: "Session default; unset or null: the service's default" })
  permissionPolicy?: AgentPermissionPolicyInput | null;
  @Field(() => RunBudgetInput, { nullable: true, description: 'Session default; unset or null: no budget' }) budget?: RunBudgetInput | null;
  @Field(() => AgentWorkspaceInput, { nullable: true, description: 'Session default; unset or null: no workspace' })
  workspace?: AgentWorkspaceInput | null;
  @Field(() => String, { nullable: true, description: 'The A2A agent card URL of a remote agent; unset or null: it runs here' })
  remoteA2a?: string | null;
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
