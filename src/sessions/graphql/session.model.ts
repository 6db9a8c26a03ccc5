import { Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { RunBudgetInput, JsonScalar } from '../../graphql-api';
import { AgentHookInput } from '../../agents';

@ObjectType({ description: 'A CLI-native sub-agent launch inside a session (or a run thread)' })
export class SubagentInstance {
  @Field() toolCallId!: string;
  @Field() agentName!: string;
  @Field() childSessionId!: string;
  @Field() status!: string;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field() startedAt!: string;
  @Field(() => String, { nullable: true }) endedAt!: string | null;
  @Field(() => Int, { nullable: true }) totalTokens!: number | null;
  @Field(() => Int, { nullable: true }) totalToolCalls!: number | null;
  @Field(() => Int, { nullable: true }) durationMs!: number | null;
}

@ObjectType()
export class SessionSummary {
  @Field(() => ID) sessionId!: string;
  @Field() status!: string;
  @Field(() => String, { nullable: true, description: 'Why it is interrupted or failed' }) statusReason!: string | null;
  @Field() model!: string;
  @Field(() => String, { nullable: true, description: 'The library agent it runs as (null: an inline config)' }) agentId!: string | null;
  @Field(() => [String], { description: 'The library agents its main agent may delegate to' }) subAgents!: string[];
  @Field(() => String, { nullable: true, description: 'What the Copilot CLI named it, else its first message, shortened; null before any message' })
  title!: string | null;
  @Field(() => String, { nullable: true, description: "Its last message (the user's or the main agent's), shortened to one line" })
  preview!: string | null;
  @Field(() => ID, { nullable: true, description: 'The delegated run this session executes (its thread sub-agent-<runId>); null for a chat' })
  runId!: string | null;
  @Field() createdAt!: string;
  @Field({ description: 'Its last event: the last activity' }) updatedAt!: string;
}

@ObjectType({ description: 'Which permission requests are approved, asked of a person, or denied (every kind not listed)' })
export class SessionPermissionPolicy {
  @Field(() => [String], { description: 'Kinds approved without asking' }) allowKinds!: string[];
  @Field({ description: "The session's own tools approved" }) approveOwnTools!: boolean;
  @Field(() => [String], { description: 'Kinds that wait for a person (ask beats allow)' }) askKinds!: string[];
  @Field(() => [String], { description: 'Tool names that wait for a person' }) askTools!: string[];
}

@ObjectType()
export class Session extends SessionSummary {
  @Field({ description: 'Its main agent may start runs (agent_run, agent_stop, agent_output)' }) delegation!: boolean;
  @Field(() => SessionPermissionPolicy) permissionPolicy!: SessionPermissionPolicy;
  @Field(() => Int) protocolVersion!: number;
  @Field(() => JsonScalar, { description: 'What the session was created with' }) config!: unknown;
  @Field({
    description:
      'The folder it works in (SWITCHBOARD_WORKING_DIRECTORY): tool paths are relative to it; a read the permission policy allows stays inside it',
  })
  workingDirectory!: string;
  @Field(() => Int, { description: 'Stream position of its latest event' }) lastPosition!: number;
  // The GraphQL field keeps its name; REST calls it subAgentLaunches (issue 24: it clashed with subAgents).
  @Field(() => [SubagentInstance], { name: 'subagents', description: "The CLI's own sub-agent launches (task tool) in this session" })
  subAgentLaunches!: SubagentInstance[];
}

@ObjectType()
export class CreatedSession {
  @Field(() => ID) sessionId!: string;
  @Field() status!: string;
  @Field() model!: string;
  @Field(() => Int, { nullable: true }) protocolVersion?: number;
}

@ObjectType()
export class MessageAccepted {
  @Field(() => ID) sessionId!: string;
  @Field(() => String, { nullable: true }) messageId?: string;
}

@InputType()
export class ToolHandlerInput {
  @Field({ description: 'webhook or builtin' }) type!: string;
  @Field({ nullable: true, description: 'webhook: the http(s) URL' }) url?: string;
  @Field({ nullable: true, description: 'builtin: its name' }) name?: string;
}

@InputType()
export class ToolInput {
  @Field() name!: string;
  @Field() description!: string;
  @Field(() => JsonScalar, { nullable: true, description: 'JSON Schema of the arguments' }) parameters?: Record<string, unknown>;
  @Field(() => ToolHandlerInput) handler!: ToolHandlerInput;
}

@InputType()
export class CustomAgentInput {
  @Field() name!: string;
  @Field({ nullable: true }) displayName?: string;
  @Field({ nullable: true }) description?: string;
  @Field() prompt!: string;
  @Field(() => [String], { nullable: true, description: 'unset: every session tool; []: none' }) tools?: string[] | null;
  @Field(() => JsonScalar, { nullable: true }) mcpServers?: Record<string, unknown>;
  @Field({ nullable: true }) infer?: boolean;
  @Field({ nullable: true }) model?: string;
}

@InputType()
export class PermissionPolicyInput {
  @Field(() => [String], { nullable: true, description: 'shell, write, read, url, mcp, custom-tool, memory' }) allowKinds?: string[];
  @Field({ nullable: true }) approveOwnTools?: boolean;
  @Field(() => [String], { nullable: true, description: 'kinds that wait for a person (ask beats allow)' }) askKinds?: string[];
  @Field(() => [String], { nullable: true, description: 'tool names that wait for a person even when their kind is allowed' }) askTools?: string[];
}

@InputType()
export class SessionSystemMessageInput {
  @Field({ nullable: true }) mode?: string;
  @Field() content!: string;
}

@InputType({ description: 'issue 42: the git worktree a session (and its runs) works in' })
export class WorkspaceInput {
  @Field({ description: 'The repository’s top folder: one of SWITCHBOARD_REPOSITORIES or inside one' }) repository!: string;
  @Field({ nullable: true, description: "A branch, tag or commit to start from; default the repository's HEAD" }) ref?: string;
  @Field({ nullable: true, description: "auto (default): a completed run's branch is merged into its lead's worktree; manual: a person merges" })
  merge?: 'auto' | 'manual';
}

/** The POST /api/sessions body; checked by the same schema. */
@InputType()
export class CreateSessionInput {
  @Field({ nullable: true }) model?: string;
  @Field(() => SessionSystemMessageInput, { nullable: true }) systemMessage?: SessionSystemMessageInput;
  @Field(() => [ToolInput], { nullable: true }) tools?: ToolInput[];
  @Field(() => [CustomAgentInput], { nullable: true }) customAgents?: CustomAgentInput[];
  @Field(() => PermissionPolicyInput, { nullable: true }) permissionPolicy?: PermissionPolicyInput;
  @Field({ nullable: true, description: 'The library agent the session runs as' }) agentId?: string;
  @Field(() => [String], { nullable: true, description: "Default: the agent's sub_agents" }) subAgents?: string[];
  @Field({ nullable: true, description: 'Give the main agent the agent_run, agent_stop and agent_output tools' }) delegation?: boolean;
  @Field(() => [AgentHookInput], { nullable: true, description: "Hook webhooks for the session and its sub-agents (after the agent's own)" })
  hooks?: AgentHookInput[];
  @Field(() => [String], { nullable: true, description: "Built-in tools the main agent may use; default: the agent's tools.builtin (empty there: all)" })
  availableTools?: string[];
  @Field(() => [String], { nullable: true, description: "Built-in tools it may not use; default: the agent's tools.excluded_builtin" })
  excludedTools?: string[];
  @Field(() => [String], { nullable: true, description: "MCP servers (names in the operator's registry) it may use; default: the agent's mcp_servers" })
  mcpServers?: string[];
  @Field(() => RunBudgetInput, { nullable: true, description: 'Limits over every run the session starts and their runs' }) budget?: RunBudgetInput;
  @Field(() => WorkspaceInput, { nullable: true, description: 'Work in a git worktree of its own (needs SWITCHBOARD_REPOSITORIES)' })
  workspace?: WorkspaceInput;
}

@ObjectType({ description: "A permission kind as this service treats it in a session's policy (the operator's switches)" })
export class PermissionKindOptionModel {
  @Field({ description: 'shell, write, read, url, mcp, custom-tool or memory' }) kind!: string;
  @Field({ description: 'What approving it lets the model do' }) description!: string;
  @Field({ description: 'May a policy allow or ask it here' }) allowed!: boolean;
  @Field(() => String, { nullable: true, description: 'Why not, when not allowed' }) refusedReason!: string | null;
  @Field(() => String, { nullable: true, description: "The operator's setting that allows it, when not allowed" }) enabledBy!: string | null;
  @Field(() => String, { nullable: true, description: 'A limit that stays when allowed' }) note!: string | null;
}

@ObjectType()
export class BudgetLimitOption {
  @Field({ description: 'max_tokens, max_tool_calls, max_runs, max_duration_ms or max_cost' }) name!: string;
  @Field(() => Int) max!: number;
}

@ObjectType({ description: 'What a session may be created with here: the operator switches a console respects (GET /api/session-options)' })
export class SessionOptionsModel {
  @Field(() => [PermissionKindOptionModel]) permissionKinds!: PermissionKindOptionModel[];
  @Field(() => [BudgetLimitOption]) budgetLimits!: BudgetLimitOption[];
  @Field(() => [String], { description: 'The built-in tools delegation gives the main agent' }) delegationTools!: string[];
  @Field(() => Int, { description: 'A request waiting for a person is denied after this long' }) approvalTimeoutMs!: number;
  @Field({ description: 'The folder sessions work in' }) workingDirectory!: string;
  @Field(() => [String], {
    description: 'issue 42: where a workspace repository may be (SWITCHBOARD_REPOSITORIES: repositories, or folders of them); empty: workspaces are off',
  })
  workspaceRepositories!: string[];
}
