import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CopilotCliConnection } from '../../../copilot-cli';
import { SessionEndpointPolicy } from '../../session-endpoint-policy';
import { LiveSessionLimit } from '../../live-session-limit';
import { LiveSessionLookup } from '../../live-session-lookup';
import { LiveSessionStarter } from '../../live-session-starter';
import { SessionStateError } from '../../session.errors';
import type { SessionSummary } from '../create-session/create-session.command';
import { ResumeSession } from './resume-session.command';

/**
 * Resumes an interrupted session (or one recorded on another CLI generation) on the current CLI: the
 * LiveSessionStarter assembles the team again and sends the full configuration; a failure sends nothing.
 */
@CommandHandler(ResumeSession)
export class ResumeSessionHandler implements ICommandHandler<ResumeSession, SessionSummary> {
  constructor(
    private readonly cli: CopilotCliConnection,
    private readonly sessions: LiveSessionLookup,
    private readonly endpoints: SessionEndpointPolicy,
    private readonly liveSessions: LiveSessionLimit,
    private readonly starter: LiveSessionStarter,
  ) {}

  async execute({ sessionId, actor }: ResumeSession): Promise<SessionSummary> {
    const session = await this.sessions.get(sessionId);
    await this.cli.ensureStarted();
    if (session.status !== 'interrupted' && session.cliGeneration === this.cli.generation) {
      throw new SessionStateError(`Session ${sessionId} is ${session.status}, not interrupted; there is nothing to resume`);
    }
    // A session recorded before inline MCP servers were refused must not start them now.
    await this.endpoints.assertAllowed({ customAgents: session.config.customAgents, permissionPolicy: session.config.permissionPolicy });
    // Counted by the limit only once on this process's CLI: an interrupted one, or one reloaded idle at start.
    const slot = session.status === 'interrupted' || session.cliGeneration === 0 ? this.liveSessions.reserve() : undefined;
    try {
      return await this.starter.start({ kind: 'resume', session, actor });
    } finally {
      slot?.release();
    }
  }
}
