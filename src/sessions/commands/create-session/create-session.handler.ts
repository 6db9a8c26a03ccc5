import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import type { HookSpec } from '../../../agents/agent-hooks';
import { AgentLibrary, type LibraryAgent } from '../../../agents/agent-library';
import { McpServerRegistry } from '../../../agents/mcp-server-registry';
import { TeamAssembler } from '../../../agents/team-assembler';
import { InvalidInputError } from '../../../common/domain-error';
import { SWITCHBOARD_CONFIG } from '../../../config/config.module';
import type { SwitchboardConfig } from '../../../config/switchboard-config';
import { CopilotCliConnection, CopilotCliConnectionLostError } from '../../../copilot-cli/copilot-cli-connection';
import { handleCommand } from '../../../event-store/decider';
import { EventStore } from '../../../event-store/event-store';
import { InstanceLease } from '../../../instances/instance-lease';
import type { EventMetadata } from '../../../event-store/event-store.types';
import { BuiltinToolCatalog } from '../../builtin-tool-catalog';
import { cliSessionParams } from '../../cli-session-options';
import { sessionStreamId } from '../../../event-store/stream-ids';
import { LiveSession } from '../../live-session';
import { SessionEndpointPolicy } from '../../session-endpoint-policy';
import { LiveSessionLimit, type LiveSessionSlot } from '../../live-session-limit';
import type { CreateSessionRequest, SessionConfig } from '../../session-config';
import { assertStorableSessionRequest } from '../../session-config-limits';
import { decideOnSession, sessionCommandMetadata } from '../../session-command';
import { CliRequestFailedError, ProviderNotConfiguredError, SessionTeamInvalidError } from '../../session.errors';
import { SESSION_COMMAND_RETRIES, type SessionCommand, sessionDecider } from '../../session.decider';
import type { SessionEvent } from '../../session.events';
import { SessionRegistry } from '../../session-registry';
import { CreateSession, SessionSummary } from './create-session.command';
import { toBudget } from '../../session-budget';

/**
 * Records the intent (`session.created`) before asking the CLI, so events the CLI emits while
 * creating already have a stream to land in; the outcome is `session.started` or `session.start_failed`.
 * With an agent: its sub-agents are checked as they are now (FR-5) and mapped to customAgents (FR-4)
 * before anything reaches the CLI.
 */
@CommandHandler(CreateSession)
export class CreateSessionHandler implements ICommandHandler<CreateSession, SessionSummary> {
  private readonly logger = new Logger(CreateSessionHandler.name);

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly registry: SessionRegistry,
    private readonly builtins: BuiltinToolCatalog,
    private readonly library: AgentLibrary,
    private readonly team: TeamAssembler,
    private readonly endpoints: SessionEndpointPolicy,
    private readonly liveSessions: LiveSessionLimit,
    private readonly mcp: McpServerRegistry,
    private readonly lease: InstanceLease,
  ) {}

  async execute(command: CreateSession): Promise<SessionSummary> {
    assertStorableSessionRequest(command.request);
    if (!this.config.cli.provider && !this.config.cli.githubToken) throw new ProviderNotConfiguredError();
    this.builtins.assertKnown(command.request.tools);
    // Before anything is recorded: a refused request leaves no session behind.
    const main = command.request.agentId ? await this.library.find(command.request.agentId) : undefined;
    await this.endpoints.assertAllowed({ ...command.request, hooks: mergedHooks(main?.hooks, command.request.hooks) });
    // Refused past the cap before anything is recorded: a 429 leaves no session behind.
    const slot = this.liveSessions.reserve();
    try {
      // The agent whose hooks were just checked is the one the session is configured from.
      return await this.create(command, main, slot);
    } finally {
      slot.release();
    }
  }

  private async create(
    { request, actor, sessionId: givenId }: CreateSession,
    main: LibraryAgent | undefined,
    slot: LiveSessionSlot,
  ): Promise<SessionSummary> {
    const sessionId = givenId ?? randomUUID();
    const sessionConfig = this.sessionConfig(request, main);
    const stream = sessionStreamId(sessionId);
    // Held by this instance from its first event: an instance that dies while creating it leaves it to a takeover.
    const metadata = sessionCommandMetadata(sessionId, actor, this.lease.instanceId);
    const created = await handleCommand(this.store, sessionDecider, stream, { type: 'CreateSession', sessionId, config: sessionConfig }, { metadata });

    const assembly = await this.team.assemble(sessionConfig.agentId, sessionConfig.subAgents, sessionConfig.mcpServers);
    if (!assembly.ok) {
      const error = new SessionTeamInvalidError(sessionId, 'start', assembly.problems);
      await this.recordStartFailure(stream, { type: 'RecordStartFailure', sessionId, error: error.message, problems: assembly.problems }, metadata);
      throw error;
    }
    const clash = assembly.customAgents.find((t) => sessionConfig.customAgents.some((a) => a.name === t.name));
    if (clash) {
      const message = `customAgents defines ${clash.name}, which is also one of the session's sub-agents; rename one of them`;
      await this.recordStartFailure(stream, { type: 'RecordStartFailure', sessionId, error: message }, metadata);
      throw new InvalidInputError(message, { sessionId });
    }

    // The team is known before the CLI has the session: child requests while it creates resolve against it.
    const session = LiveSession.fromState(sessionId, created.state, this.cli.generation, assembly.customAgents);
    session.commandBase = { state: created.state, version: created.version };
    try {
      await this.cli.ensureStarted();
      session.cliGeneration = this.cli.generation;
      this.registry.add(session);
      slot.release(); // counted by its own status from here
      await this.cli.request('session.create', cliSessionParams(sessionId, sessionConfig, this.config.cli, session.customAgents, assembly.mcpServers));
    } catch (error) {
      if (error instanceof CopilotCliConnectionLostError) {
        // The CLI went away with the request: the session stays, interrupted like every session on that
        // CLI, and resuming it creates it in the CLI if the create never got there.
        this.logger.warn({ sessionId, err: error }, 'session.create lost with the CLI connection; the session is interrupted');
        throw new CopilotCliConnectionLostError(
          `The Copilot CLI went away while creating session ${sessionId}; it is interrupted: resume it with POST /api/sessions/${sessionId}/resume`,
          { sessionId },
        );
      }
      this.registry.remove(sessionId);
      const message = (error as Error).message;
      await decideOnSession(this.store, session, { type: 'RecordStartFailure', sessionId, error: message }, actor);
      this.logger.warn({ sessionId, err: error }, 'session.create failed');
      if (error instanceof CliRequestFailedError || (error as { code?: string }).code === 'cli_unavailable') throw error;
      throw new CliRequestFailedError(`The Copilot CLI could not create the session: ${message}`, { sessionId });
    }
    await decideOnSession(
      this.store,
      session,
      { type: 'RecordStart', sessionId, protocolVersion: this.cli.protocolVersion, cliVersion: this.cli.cliVersion, teamAgents: assembly.customAgents },
      actor,
      this.lease.instanceId,
    );
    return { sessionId, status: 'active', model: sessionConfig.model, protocolVersion: this.cli.protocolVersion };
  }

  /** CLI records may land between the read and the append: decide again on them. */
  private async recordStartFailure(stream: string, command: SessionCommand, metadata: EventMetadata): Promise<SessionEvent[]> {
    return (await handleCommand(this.store, sessionDecider, stream, command, { metadata, retries: SESSION_COMMAND_RETRIES })).events;
  }

  /**
   * The main agent gives the defaults: its model, its system message (FR: mode honoured), its sub_agents,
   * its built-in tool allowlist and exclusions, and its MCP servers (FR-3's selectors change them).
   */
  private sessionConfig(request: CreateSessionRequest, main: LibraryAgent | undefined): SessionConfig {
    const agentMessage =
      main && main.system_message.content.trim().length > 0 ? { mode: main.system_message.mode, content: main.system_message.content } : undefined;
    const systemMessage = request.systemMessage ?? agentMessage;
    const delegationTools = request.delegation ? this.builtins.group('delegation') : [];
    const clash = delegationTools.find((t) => request.tools.some((own) => own.name === t.name));
    if (clash) throw new InvalidInputError(`tools defines ${clash.name}, which delegation: true provides; remove one of them`);
    return {
      model: request.model ?? main?.model ?? this.config.cli.defaultModel,
      ...(systemMessage ? { systemMessage } : {}),
      tools: [...request.tools, ...delegationTools],
      customAgents: request.customAgents,
      permissionPolicy: request.permissionPolicy,
      ...(request.agentId ? { agentId: request.agentId } : {}),
      subAgents: request.subAgents ?? main?.sub_agents ?? [],
      hooks: mergedHooks(main?.hooks, request.hooks),
      ...optionalList('availableTools', request.availableTools ?? (main && main.tools.builtin.length > 0 ? main.tools.builtin : undefined)),
      ...optionalList('excludedTools', request.excludedTools ?? main?.tools.excluded_builtin),
      ...optionalList('mcpServers', this.knownMcpServers(request.mcpServers) ?? main?.mcp_servers),
      ...(request.budget ? { budget: toBudget(request.budget) } : {}),
    };
  }

  /** Names picked for the session must be in the operator's registry now: refused before anything is recorded. */
  private knownMcpServers(names: string[] | undefined): string[] | undefined {
    if (names === undefined) return undefined;
    const { missing, fileProblem } = this.mcp.resolve(names);
    if (fileProblem) throw new InvalidInputError(`mcpServers: the MCP config cannot be read (${fileProblem})`);
    if (missing.length > 0) {
      const known = this.mcp.entries().servers.map((s) => s.name);
      throw new InvalidInputError(
        `mcpServers: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not in ${this.mcp.describeSource()}; it has ${known.length > 0 ? known.join(', ') : 'none'}`,
      );
    }
    return names;
  }
}

/** `{ [key]: list }` for a list worth storing; an empty exclusion or server list is the same as none. */
function optionalList<K extends string>(key: K, list: readonly string[] | undefined): Partial<Record<K, string[]>> {
  if (list === undefined || (key !== 'availableTools' && list.length === 0)) return {};
  return { [key]: [...list] } as Partial<Record<K, string[]>>;
}

/** The main agent's hooks, then the request's (a run's: its owner's), each (type, url) once. */
function mergedHooks(agentHooks: readonly HookSpec[] | undefined, requestHooks: readonly HookSpec[]): HookSpec[] {
  const seen = new Set<string>();
  return [...(agentHooks ?? []), ...requestHooks].filter((hook) => {
    const key = `${hook.type} ${hook.url}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
