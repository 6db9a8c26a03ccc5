import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { AgentLibrary, McpServerRegistry, UnknownAgentError } from '../../../agents';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../../config';
import { BuiltinToolCatalog } from '../../builtin-tool-catalog';
import { SessionEndpointPolicy } from '../../session-endpoint-policy';
import { LiveSessionLimit } from '../../live-session-limit';
import { LiveSessionStarter } from '../../live-session-starter';
import { assertStorableSessionRequest } from '../../session-config-limits';
import { ProviderNotConfiguredError } from '../../session.errors';
import { CopilotCliConnection } from '../../../copilot-cli';
import { type WorkspaceOpenedData, Workspaces } from '../../../workspaces';
import type { SessionWorkspace } from '../../session-config';
import { assertBudgetAvailable, routeForBudget } from '../../session-budget';
import { CreateSession, SessionSummary } from './create-session.command';
import { requestedSessionConfig } from './requested-session-config';

/**
 * Checks the request before anything is recorded (a refused request leaves no session behind), then
 * hands the session to the LiveSessionStarter. With an agent: its sub-agents are checked as they are
 * now (FR-5) and mapped to customAgents (FR-4) before anything reaches the CLI.
 */
@CommandHandler(CreateSession)
export class CreateSessionHandler implements ICommandHandler<CreateSession, SessionSummary> {
  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly builtins: BuiltinToolCatalog,
    private readonly library: AgentLibrary,
    private readonly endpoints: SessionEndpointPolicy,
    private readonly liveSessions: LiveSessionLimit,
    private readonly mcp: McpServerRegistry,
    private readonly starter: LiveSessionStarter,
    private readonly cli: CopilotCliConnection,
    private readonly workspaces: Workspaces,
  ) {}

  async execute({ request, actor, sessionId: givenId, agentDefaults, replay, workspaceParent }: CreateSession): Promise<SessionSummary> {
    assertStorableSessionRequest(request);
    if (!this.config.cli.provider && !this.config.cli.githubToken) throw new ProviderNotConfiguredError();
    this.builtins.assertKnown(request.tools);
    const main = request.agentId ? await this.library.find(request.agentId) : undefined;
    // Before session.created: an unknown agent leaves no failed session behind (422, as POST /api/runs says it).
    if (request.agentId && !main) throw new UnknownAgentError(request.agentId);
    // The agent whose hooks and policy are checked is the one the session is configured from.
    const requested = requestedSessionConfig(request, main, { config: this.config, builtins: this.builtins, mcp: this.mcp }, agentDefaults);
    // Stored in session.created with the rest, so a resumed replay session is still answered from its record.
    const config = replay ? { ...requested, replay } : requested;
    // A cost limit from the request, or from the agent's defaults (then that is what to change).
    const budgetField = request.budget || !main ? 'budget.maxCost' : `agent ${main.id}: budget.max_cost`;
    assertBudgetAvailable(config.budget, this.config.modelCalls.prices, await routeForBudget(config.budget, this.cli), budgetField);
    await this.endpoints.assertAllowed({
      ...request,
      permissionPolicy: config.permissionPolicy,
      // A refused kind from the agent's defaults names the agent's field: that is what to change.
      ...(request.permissionPolicy || !main ? {} : { permissionPolicyField: `agent ${main.id}: permission_policy` }),
      hooks: config.hooks ?? [],
    });
    // issue 42: the request's workspace, else the agent's default; a repository outside the list, or an unknown
    // ref, is refused (422) before anything is made or recorded.
    const workspace = request.workspace ?? (agentDefaults === 'skip' ? undefined : main?.workspace);
    if (workspace) await this.workspaces.check(workspace);
    // Refused past the cap before anything is recorded: a 429 leaves no session behind.
    const slot = this.liveSessions.reserve();
    try {
      const sessionId = givenId ?? randomUUID();
      // The worktree exists before the CLI is told to work in it.
      const opened = workspace
        ? await this.workspaces.open(sessionId, workspace)
        : workspaceParent
          ? await this.workspaces.openForChild(sessionId, workspaceParent)
          : undefined;
      const withWorkspace = opened ? { ...config, workspace: sessionWorkspaceOf(opened) } : config;
      return await this.starter.start({ kind: 'create', sessionId, config: withWorkspace, actor, slot });
    } finally {
      slot.release();
    }
  }
}

function sessionWorkspaceOf(opened: WorkspaceOpenedData): SessionWorkspace {
  return {
    path: opened.path,
    repository: opened.repository,
    branch: opened.branch,
    baseCommit: opened.baseCommit,
    ...(opened.parentSessionId ? { parentSessionId: opened.parentSessionId } : {}),
  };
}
