import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CopilotCliConnection } from '../../../copilot-cli';
import { EventStore } from '../../../event-store';
import { Workspaces } from '../../../workspaces';
import { decideOnSession } from '../../session-command';
import { LiveSessionLookup } from '../../live-session-lookup';
import { SessionRegistry } from '../../session-registry';
import { WorkspaceCheckpoints } from '../../workspace-checkpoints';
import { DestroySession } from './destroy-session.command';

/**
 * Destroys the CLI session (best effort: a dead CLI has nothing left to destroy) and removes it from
 * the registry, which drops its child mappings (spec: Cleanup Contract, destroy).
 */
@CommandHandler(DestroySession)
export class DestroySessionHandler implements ICommandHandler<DestroySession> {
  private readonly logger = new Logger(DestroySessionHandler.name);

  constructor(
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly registry: SessionRegistry,
    private readonly sessions: LiveSessionLookup,
    private readonly workspaces: Workspaces,
    private readonly checkpoints: WorkspaceCheckpoints,
  ) {}

  async execute({ sessionId, actor, reason }: DestroySession) {
    const session = await this.sessions.get(sessionId);
    let cliError: string | undefined;
    if (session.cliGeneration === this.cli.generation && this.cli.isRunning) {
      try {
        await this.cli.request('session.destroy', { sessionId }, 10_000);
      } catch (error) {
        cliError = (error as Error).message;
        this.logger.warn({ sessionId, err: error }, 'session.destroy failed; destroying locally');
      }
    }
    // Decided on the stream as it is now: of two racing destroys (or a destroy and a send) only one wins.
    await decideOnSession(this.store, session, { type: 'DestroySession', sessionId, reason, cliError }, actor);
    this.registry.remove(sessionId);
    this.checkpoints.forget(sessionId);
    // issue 42: its worktree folder goes with it; its branch keeps every change (a failure here is logged, the destroy stands).
    await this.workspaces.remove(sessionId, 'session-destroyed').catch((error: unknown) => {
      this.logger.warn({ sessionId, err: error }, 'could not remove the destroyed session’s worktree; its branch keeps its changes');
    });
    return { sessionId, status: 'destroyed' as const };
  }
}
