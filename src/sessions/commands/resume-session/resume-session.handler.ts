import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { TeamAssembler } from '../../../agents/team-assembler';
import { SWITCHBOARD_CONFIG } from '../../../config/config.module';
import type { SwitchboardConfig } from '../../../config/switchboard-config';
import { CopilotCliConnection, CopilotCliConnectionLostError } from '../../../copilot-cli/copilot-cli-connection';
import { EventStore } from '../../../event-store/event-store';
import { InstanceLease } from '../../../instances/instance-lease';
import { streamPages } from '../../../event-store/stream-pages';
import { sessionStreamId } from '../../../event-store/stream-ids';
import { cliSessionParams } from '../../cli-session-options';
import { SessionEndpointPolicy } from '../../session-endpoint-policy';
import type { LiveSession } from '../../live-session';
import { LiveSessionLimit } from '../../live-session-limit';
import { decideOnSession } from '../../session-command';
import { LiveSessionLookup } from '../../live-session-lookup';
import { SessionEvents } from '../../session.events';
import { CliRequestFailedError, SessionStateError, SessionTeamInvalidError } from '../../session.errors';
import type { SessionSummary } from '../create-session/create-session.command';
import { ResumeSession } from './resume-session.command';

/** How the CLI answers session.resume for an id it has no history of. */
const SESSION_NOT_FOUND = /session not found/i;

/**
 * `session.resume` on the current CLI with the full configuration again: the CLI keeps the
 * conversation on disk but forgets tools, agents and the model provider when it restarts. The team
 * is checked and mapped again from the agents as they are now (FR-5); a failure sends nothing.
 * A session the CLI has no history of, where none was lost, is created now from its recorded
 * configuration instead of failing every resume: one the CLI never created (the service died between
 * recording `session.created` and the CLI's answer), and one that never got a message (the CLI writes a
 * session to disk with its first message, so a CLI restart forgets an unused one). A session that had a
 * conversation the CLI lost stays a 502: recreating it would carry on without its context, silently.
 */
@CommandHandler(ResumeSession)
export class ResumeSessionHandler implements ICommandHandler<ResumeSession, SessionSummary> {
  private readonly logger = new Logger(ResumeSessionHandler.name);

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly sessions: LiveSessionLookup,
    private readonly team: TeamAssembler,
    private readonly endpoints: SessionEndpointPolicy,
    private readonly liveSessions: LiveSessionLimit,
    private readonly lease: InstanceLease,
  ) {}

  async execute({ sessionId, actor }: ResumeSession): Promise<SessionSummary> {
    const session = await this.sessions.get(sessionId);
    await this.cli.ensureStarted();
    if (session.status !== 'interrupted' && session.cliGeneration === this.cli.generation) {
      throw new SessionStateError(`Session ${sessionId} is ${session.status}, not interrupted; there is nothing to resume`);
    }
    // A session recorded before inline MCP servers were refused must not start them now.
    await this.endpoints.assertAllowed({ customAgents: session.config.customAgents, permissionPolicy: session.config.permissionPolicy });
    const slot = session.status === 'interrupted' ? this.liveSessions.reserve() : undefined;
    try {
      return await this.resume(session, actor);
    } finally {
      slot?.release();
    }
  }

  private async resume(session: LiveSession, actor: string | undefined): Promise<SessionSummary> {
    const { sessionId } = session;
    const assembly = await this.team.assemble(session.config.agentId, session.config.subAgents, session.config.mcpServers);
    if (!assembly.ok) {
      const error = new SessionTeamInvalidError(sessionId, 'resume', assembly.problems);
      await decideOnSession(this.store, session, { type: 'RecordResumeFailure', sessionId, error: error.message, problems: assembly.problems }, actor);
      throw error;
    }
    const customAgents = [...session.config.customAgents, ...assembly.customAgents];
    const params = cliSessionParams(sessionId, session.config, this.config.cli, customAgents, assembly.mcpServers);
    let createdInCli = false;
    try {
      await this.cli.request('session.resume', params);
    } catch (error) {
      if (!SESSION_NOT_FOUND.test((error as Error).message) || (await this.hadConversation(session))) throw this.failure(sessionId, 'resume', error);
      this.logger.warn(
        { sessionId, cliCreated: session.cliCreated },
        'the CLI has no history of this session and it never had a message; creating it from its recorded configuration',
      );
      try {
        await this.cli.request('session.create', params);
      } catch (createError) {
        throw this.failure(sessionId, 'create', createError);
      }
      createdInCli = true;
    }
    // Recorded once the CLI has it; a second resume racing this one finds it resumed on this CLI and is refused.
    session.cliGeneration = this.cli.generation;
    await decideOnSession(
      this.store,
      session,
      {
        type: 'ResumeSession',
        sessionId,
        cliGeneration: this.cli.generation,
        protocolVersion: this.cli.protocolVersion,
        cliVersion: this.cli.cliVersion,
        teamAgents: assembly.customAgents,
        createdInCli,
      },
      actor,
      // This instance's CLI holds it from here on, wherever it was live before.
      this.lease.instanceId,
    );
    return { sessionId, status: 'idle', model: session.config.model, protocolVersion: this.cli.protocolVersion };
  }

  /**
   * Read from the log only on this rare path: whether any prompt ever reached the CLI for the session
   * (a page at a time, up to the first one: a long session's stream is not read whole on the loop).
   */
  private async hadConversation(session: LiveSession): Promise<boolean> {
    if (!session.cliCreated) return false;
    for await (const page of streamPages(this.store, sessionStreamId(session.sessionId))) {
      if (page.some((event) => event.type === SessionEvents.messageSent)) return true;
    }
    return false;
  }

  /** A CLI that went away keeps its 503 (the session stays interrupted); anything the CLI answered is a 502. */
  private failure(sessionId: string, action: 'resume' | 'create', error: unknown): Error {
    if (error instanceof CopilotCliConnectionLostError) {
      return new CopilotCliConnectionLostError(`The Copilot CLI went away while resuming session ${sessionId}; it is still interrupted: resume it again`, {
        sessionId,
      });
    }
    return new CliRequestFailedError(`The Copilot CLI could not ${action} session ${sessionId}: ${(error as Error).message}`, { sessionId });
  }
}
