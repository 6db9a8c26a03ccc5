import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SWITCHBOARD_CONFIG } from '../../../config/config.module';
import type { SwitchboardConfig } from '../../../config/switchboard-config';
import { CopilotCliConnection } from '../../../copilot-cli/copilot-cli-connection';
import { EventStore } from '../../../event-store/event-store';
import { cliSessionParams } from '../../cli-session-options';
import { SessionEvents, sessionStreamId } from '../../session.events';
import { SessionRegistry } from '../../session-registry';
import { CliRequestFailedError, SessionNotFoundError, SessionStateError } from '../../session.errors';
import type { SessionSummary } from '../create-session/create-session.command';
import { ResumeSession } from './resume-session.command';

/**
 * `session.resume` on the current CLI with the full configuration again: the CLI keeps the
 * conversation on disk but forgets tools, agents and the model provider when it restarts.
 */
@CommandHandler(ResumeSession)
export class ResumeSessionHandler implements ICommandHandler<ResumeSession, SessionSummary> {
  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly registry: SessionRegistry,
  ) {}

  async execute({ sessionId, actor }: ResumeSession): Promise<SessionSummary> {
    const session = this.registry.get(sessionId);
    if (!session) throw new SessionNotFoundError(sessionId);
    await this.cli.ensureStarted();
    if (session.status !== 'interrupted' && session.cliGeneration === this.cli.generation) {
      throw new SessionStateError(`Session ${sessionId} is ${session.status}, not interrupted; there is nothing to resume`);
    }
    try {
      await this.cli.request('session.resume', cliSessionParams(sessionId, session.config, this.config.cli));
    } catch (error) {
      throw new CliRequestFailedError(`The Copilot CLI could not resume session ${sessionId}: ${(error as Error).message}`, {
        sessionId,
      });
    }
    session.cliGeneration = this.cli.generation;
    session.status = 'idle';
    await this.store.append(sessionStreamId(sessionId), 'any', [
      { type: SessionEvents.resumed, data: { cliGeneration: this.cli.generation }, metadata: { actor } },
    ]);
    return { sessionId, status: 'idle', model: session.config.model, protocolVersion: this.cli.protocolVersion };
  }
}
