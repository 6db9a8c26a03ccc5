import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { SWITCHBOARD_CONFIG } from '../../../config/config.module';
import type { SwitchboardConfig } from '../../../config/switchboard-config';
import { CopilotCliConnection } from '../../../copilot-cli/copilot-cli-connection';
import { EventStore } from '../../../event-store/event-store';
import { cliSessionParams } from '../../cli-session-options';
import { LiveSession } from '../../live-session';
import type { SessionConfig } from '../../session-config';
import { CliRequestFailedError, ProviderNotConfiguredError } from '../../session.errors';
import { SessionEvents, sessionStreamId } from '../../session.events';
import { SessionRegistry } from '../../session-registry';
import { BuiltinToolCatalog } from '../../builtin-tool-catalog';
import { CreateSession, SessionSummary } from './create-session.command';

/**
 * Records the intent (`session.created`) before asking the CLI, so events the CLI emits while
 * creating already have a stream to land in; the outcome is `session.started` or `session.start_failed`.
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
  ) {}

  async execute({ request, actor }: CreateSession): Promise<SessionSummary> {
    if (!this.config.cli.provider && !this.config.cli.githubToken) throw new ProviderNotConfiguredError();
    this.builtins.assertKnown(request.tools);
    const sessionId = randomUUID();
    const sessionConfig: SessionConfig = {
      model: request.model ?? this.config.cli.defaultModel,
      ...(request.systemMessage ? { systemMessage: request.systemMessage } : {}),
      tools: request.tools,
      customAgents: request.customAgents,
      permissionPolicy: request.permissionPolicy,
    };
    await this.cli.ensureStarted();
    const stream = sessionStreamId(sessionId);
    const metadata = { actor, correlationId: sessionId };
    await this.store.append(stream, 'no_stream', [
      { type: SessionEvents.created, data: { sessionId, config: sessionConfig }, metadata },
    ]);
    const session = new LiveSession(sessionId, sessionConfig, 'starting', this.cli.generation);
    this.registry.add(session);
    try {
      await this.cli.request('session.create', cliSessionParams(sessionId, sessionConfig, this.config.cli));
    } catch (error) {
      this.registry.remove(sessionId);
      const message = (error as Error).message;
      await this.store.append(stream, 'any', [{ type: SessionEvents.startFailed, data: { error: message }, metadata }]);
      this.logger.warn({ sessionId, err: error }, 'session.create failed');
      throw new CliRequestFailedError(`The Copilot CLI could not create the session: ${message}`, { sessionId });
    }
    session.status = 'active';
    await this.store.append(stream, 'any', [
      {
        type: SessionEvents.started,
        data: { protocolVersion: this.cli.protocolVersion, cliVersion: this.cli.cliVersion },
        metadata,
      },
    ]);
    return { sessionId, status: 'active', model: sessionConfig.model, protocolVersion: this.cli.protocolVersion };
  }
}
