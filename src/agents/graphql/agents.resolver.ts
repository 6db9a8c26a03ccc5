import { Args, ID, Int, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { agentFieldsSchema, agentInputSchema } from '../agent-definition';
import { agentFileSchema } from '../agent-files';
import type { AgentView } from '../agent-library';
import { CreateAgent } from '../commands/create-agent/create-agent.command';
import { DeleteAgent } from '../commands/delete-agent/delete-agent.command';
import { ImportAgents } from '../commands/import-agents/import-agents.command';
import { UpdateAgent } from '../commands/update-agent/update-agent.command';
import { EligibleSubAgents } from '../queries/eligible-sub-agents/eligible-sub-agents.query';
import { GetAgent } from '../queries/get-agent/get-agent.query';
import { ListAgents } from '../queries/list-agents/list-agents.query';
import { CheckAgentDraft } from '../queries/check-agent-draft/check-agent-draft.query';
import { ExportAgents } from '../queries/export-agents/export-agents.query';
import { ListMcpServers } from '../queries/list-mcp-servers/list-mcp-servers.query';
import { WatchAgentLibrary } from '../queries/watch-agent-library/watch-agent-library.query';
import { HOOK_TYPES } from '../agent-hooks';
import { BuiltinToolList } from '../../copilot-cli';
import { observableToAsyncIterator, validated, budgetFromInput, budgetLimitsOf, nullWhenNotFound } from '../../graphql-api';
import {
  Agent,
  AgentDraftCheck,
  AgentFieldsInput,
  AgentFile,
  AgentFileInput,
  AgentLibraryChange,
  CreateAgentInput,
  DeletedAgent,
  ImportedAgents,
  McpServerList,
} from './agent.model';

const importSchema = z.array(agentFileSchema).min(1).max(1000);

export function agentOf(view: AgentView): Agent {
  return {
    id: view.id,
    name: view.name,
    description: view.description,
    icon: view.icon,
    systemMessage: view.system_message,
    model: view.model,
    tools: { custom: view.tools.custom, builtin: view.tools.builtin, excludedBuiltin: view.tools.excluded_builtin },
    mcpServers: view.mcp_servers,
    subAgents: view.sub_agents,
    allowedAgents: view.allowed_agents ?? null,
    excludedAgents: view.excluded_agents ?? null,
    hooks: view.hooks?.map((h) => ({ type: h.type, url: h.url, failure: h.failure ?? null })) ?? null,
    delegation: view.delegation ?? null,
    permissionPolicy: view.permission_policy
      ? { allowKinds: view.permission_policy.allow_kinds, askKinds: view.permission_policy.ask_kinds, askTools: view.permission_policy.ask_tools }
      : null,
    budget: view.budget ? budgetLimitsOf(view.budget) : null,
    workspace: view.workspace ? { repository: view.workspace.repository, ref: view.workspace.ref ?? null, merge: view.workspace.merge ?? null } : null,
    remoteA2a: view.remote?.a2a ?? null,
    version: view.version,
    createdAt: view.created_at,
    updatedAt: view.updated_at,
    composable: view.composable,
    composableReasons: view.composable_reasons,
    subAgentProblems: view.sub_agent_problems,
    includedIn: view.included_in,
  };
}

/**
 * camelCase input -> the agent JSON format's snake_case fields. GraphQL clients send null for a field
 * they leave unset: that is the default (absent), except `model`, where null means "the default model".
 */
function agentFields(input: AgentFieldsInput) {
  return {
    name: input.name,
    description: input.description ?? undefined,
    icon: input.icon ?? undefined,
    system_message: input.systemMessage ? { mode: input.systemMessage.mode ?? undefined, content: input.systemMessage.content ?? undefined } : undefined,
    model: input.model,
    tools: input.tools
      ? { custom: input.tools.custom ?? undefined, builtin: input.tools.builtin ?? undefined, excluded_builtin: input.tools.excludedBuiltin ?? undefined }
      : undefined,
    mcp_servers: input.mcpServers ?? undefined,
    sub_agents: input.subAgents ?? undefined,
    allowed_agents: input.allowedAgents ?? undefined,
    excluded_agents: input.excludedAgents ?? undefined,
    hooks: input.hooks?.map((h) => ({ type: h.type, url: h.url, ...(h.failure ? { failure: h.failure } : {}) })) ?? undefined,
    delegation: input.delegation ?? undefined,
    permission_policy: input.permissionPolicy
      ? {
          allow_kinds: input.permissionPolicy.allowKinds ?? undefined,
          ask_kinds: input.permissionPolicy.askKinds ?? undefined,
          ask_tools: input.permissionPolicy.askTools ?? undefined,
        }
      : undefined,
    budget: input.budget ? budgetFromInput(input.budget) : undefined,
    workspace: input.workspace
      ? {
          repository: input.workspace.repository,
          ...(input.workspace.ref ? { ref: input.workspace.ref } : {}),
          ...(input.workspace.merge ? { merge: input.workspace.merge } : {}),
        }
      : undefined,
    remote: input.remoteA2a ? { a2a: input.remoteA2a } : undefined,
  };
}

@Resolver(() => Agent)
export class AgentsResolver {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
    private readonly builtinTools: BuiltinToolList,
  ) {}

  @Query(() => [Agent], {
    description: 'The agent library, each with composable and its reasons',
    complexity: ({ childComplexity }) => 100 * childComplexity,
  })
  async agents(
    @Args('composable', { type: () => Boolean, nullable: true, description: 'Only agents that can (true) or cannot (false) be sub-agents' })
    composable?: boolean,
  ) {
    const { agents } = await this.queryBus.execute(new ListAgents(composable ?? undefined));
    return agents.map(agentOf);
  }

  @Query(() => Agent, { nullable: true })
  async agent(@Args('id', { type: () => ID }) id: string) {
    const view = await nullWhenNotFound(this.queryBus.execute(new GetAgent(id)));
    return view ? agentOf(view) : null;
  }

  @Query(() => [Agent], { description: 'Agents that can be sub-agents of `exclude`', complexity: ({ childComplexity }) => 100 * childComplexity })
  async eligibleSubAgents(@Args('exclude', { type: () => String, nullable: true }) exclude?: string) {
    const { agents } = await this.queryBus.execute<EligibleSubAgents, { agents: AgentView[] }>(new EligibleSubAgents(exclude ?? undefined));
    return agents.map(agentOf);
  }

  @Query(() => AgentDraftCheck, {
    description:
      'Whether a draft could be a sub-agent and what is wrong with the sub-agents it selects, by the rules of saving; id: the agent being edited',
  })
  async agentDraftCheck(@Args('id', { type: () => ID, nullable: true }) id: string | undefined, @Args('input') input: AgentFieldsInput) {
    const fields = validated(agentFieldsSchema, agentFields(input));
    const check = await this.queryBus.execute(new CheckAgentDraft(id ?? undefined, fields));
    return { composable: check.composable, composableReasons: check.composable_reasons, subAgentProblems: check.sub_agent_problems };
  }

  @Query(() => McpServerList, { description: "The MCP server names agents may use (the operator's SWITCHBOARD_MCP_CONFIG)" })
  async mcpServers() {
    const { servers, problem } = await this.queryBus.execute(new ListMcpServers());
    return { servers, problem: problem ?? null };
  }

  @Query(() => [String], {
    description:
      "The installed Copilot CLI's built-in tool names (its tools.list, with ask_user), as suggestions for an agent's tools allowlist; a hand list while the CLI cannot be asked",
  })
  async knownBuiltinTools() {
    return (await this.builtinTools.names()).names;
  }

  @Query(() => [String], { description: 'The hook types a hook webhook may be registered for (what the CLI sends through hooks.invoke)' })
  hookTypes() {
    return HOOK_TYPES;
  }

  @Query(() => [AgentFile], { description: 'Every agent as a <id>.json file in the agent JSON format (GET /api/agents/export)' })
  async agentFiles() {
    return (await this.queryBus.execute(new ExportAgents())).files;
  }

  @Subscription(() => AgentLibraryChange, {
    description: 'Changes to the agent library from now on, whoever made them (another tab, the API, agents:import)',
    resolve: (change: AgentLibraryChange) => change,
  })
  async agentLibraryChanged() {
    return observableToAsyncIterator(await this.queryBus.execute(new WatchAgentLibrary()));
  }

  @Mutation(() => Agent, { description: 'Create an agent (invalid_sub_agents when its sub-agents are unknown or cannot be sub-agents)' })
  async createAgent(@Args('input') input: CreateAgentInput) {
    const body = validated(agentInputSchema, { ...agentFields(input), id: input.id ?? undefined });
    return agentOf(await this.commandBus.execute(new CreateAgent(body)));
  }

  @Mutation(() => Agent, { description: 'Replace an agent definition; expectedVersion guards against lost updates' })
  async updateAgent(
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: AgentFieldsInput,
    @Args('expectedVersion', { type: () => Int, nullable: true }) expectedVersion?: number,
  ) {
    const fields = validated(agentFieldsSchema, agentFields(input));
    return agentOf(await this.commandBus.execute(new UpdateAgent(id, fields, expectedVersion ?? undefined)));
  }

  @Mutation(() => DeletedAgent)
  deleteAgent(@Args('id', { type: () => ID }) id: string, @Args('expectedVersion', { type: () => Int, nullable: true }) expectedVersion?: number) {
    return this.commandBus.execute(new DeleteAgent(id, expectedVersion ?? undefined));
  }

  @Mutation(() => ImportedAgents, { description: 'Import agent files all together, or nothing when one does not parse' })
  importAgents(@Args('files', { type: () => [AgentFileInput] }) files: AgentFileInput[]) {
    return this.commandBus.execute(new ImportAgents(validated(importSchema, files)));
  }
}
