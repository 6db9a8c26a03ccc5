import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { TeamAssembler } from '../../../agents/team-assembler';
import { SWITCHBOARD_CONFIG } from '../../../config/config.module';
import type { SwitchboardConfig } from '../../../config/switchboard-config';
import { CopilotCliConnection } from '../../../copilot-cli/copilot-cli-connection';
import { EventStore } from '../../../event-store/event-store';
import { cliSessionParams } from '../../cli-session-options';
import { SessionEndpointPolicy } from '../../session-endpoint-policy';
import { SessionEvents, sessionStreamId } from '../../session.events';
import { LiveSessionLookup } from '../../live-session-lookup';
import { CliRequestFailedError, SessionStateError, SessionTeamInvalidError } from '../../session.errors';
import type { SessionSummary } from '../create-session/create-session.command';
import { ResumeSession } from './resume-session.command';

/**
 * `session.resume` on the current CLI with the full configuration again: the CLI keeps the
 * conversation on disk but forgets tools, agents and the model provider when it restarts. The team
 * is checked and mapped again from the agents as they are now (FR-5); a failure sends nothing.
 */
@CommandHandler(ResumeSession)
export class ResumeSessionHandler implements ICommandHandler<ResumeSession, SessionSummary> {
  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly sessions: LiveSessionLookup,
    private readonly team: TeamAssembler,
    private readonly endpoints: SessionEndpointPolicy,
  ) {}

  async execute({ sessionId, actor }: ResumeSession): Promise<SessionSummary> {
    const session = this.sessions.get(sessionId);
    await this.cli.ensureStarted();
    if (session.status !== 'interrupted' && session.cliGeneration === this.cli.generation) {
      throw new SessionStateError(`Session ${sessionId} is ${session.status}, not interrupted; there is nothing to resume`);
    }
    // A session recorded before inline MCP servers were refused must not start them now.
    await this.endpoints.assertAllowed({ customAgents: session.config.customAgents, permissionPolicy: session.config.permissionPolicy });
    const stream = sessionStreamId(sessionId);
    const assembly = this.team.assemble(session.config.agentId, session.config.subAgents);
    if (!assembly.ok) {
      const error = new SessionTeamInvalidError(sessionId, 'resume', assembly.problems);
      await this.store.append(stream, 'any', [
        { type: SessionEvents.resumeFailed, data: { error: error.message, problems: assembly.problems }, metadata: { actor } },
      ]);
      throw error;
    }
    const customAgents = [...session.config.customAgents, ...assembly.customAgents];
    try {
      await this.cli.request('session.resume', cliSessionParams(sessionId, session.config, this.config.cli, customAgents));
    } catch (error) {
      throw new CliRequestFailedError(`The Copilot CLI could not resume session ${sessionId}: ${(error as Error).message}`, {
        sessionId,
      });
    }
    session.customAgents = customAgents;
    session.cliGeneration = this.cli.generation;
    session.status = 'idle';
    await this.store.append(stream, 'any', [
      { type: SessionEvents.resumed, data: { cliGeneration: this.cli.generation, teamAgents: assembly.customAgents }, metadata: { actor } },
    ]);
    return { sessionId, status: 'idle', model: session.config.model, protocolVersion: this.cli.protocolVersion };
  }
}
