import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CopilotCliConnection, CopilotCliConnectionLostError } from '../../../copilot-cli';
import { EventStore } from '../../../event-store';
import { LiveSessionLookup } from '../../live-session-lookup';
import { decideOnSession } from '../../session-command';
import { CliRequestFailedError, SessionStateError, SteerNeedsProtocol3Error } from '../../session.errors';
import { SubagentLaunchesReadModel } from '../../subagent-launches-read-model';
import { AgentSteered, SteerSession } from './steer-session.command';

/** How long the CLI has to take the steer (it answers at once: the message waits for the agent's next request). */
const STEER_REQUEST_TIMEOUT_MS = 10_000;

/**
 * Steers a running agent: `session.steered` is recorded first (who, what, which agent; decided on the
 * session's state: only a running turn, only a running sub-agent), then the CLI is given the message.
 * When the CLI does not take it, `session.steer_failed` says so and the caller gets the reason.
 */
@CommandHandler(SteerSession)
export class SteerSessionHandler implements ICommandHandler<SteerSession, AgentSteered> {
  constructor(
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly sessions: LiveSessionLookup,
    private readonly launches: SubagentLaunchesReadModel,
  ) {}

  async execute({ sessionId, message, actor, target }: SteerSession): Promise<AgentSteered> {
    const session = await this.sessions.get(sessionId, target.runId ? `Run ${target.runId}` : undefined);
    if (this.cli.protocolVersion !== undefined && this.cli.protocolVersion < 3) throw new SteerNeedsProtocol3Error(sessionId, this.cli.protocolVersion);
    const { subagentId } = target;
    const launch = subagentId ? await this.launches.launch(sessionId, subagentId) : undefined;
    const agentName = launch?.agentName ?? session.config.agentId ?? 'main';
    await decideOnSession(
      this.store,
      session,
      {
        type: 'SteerAgent',
        sessionId,
        message,
        onCurrentCli: session.cliGeneration === this.cli.generation,
        steeredBy: actor,
        agentName,
        ...(target.runId ? { runId: target.runId } : {}),
        ...(subagentId ? { subagent: { subagentId: launch?.childSessionId ?? subagentId, status: launch?.status } } : {}),
      },
      actor,
    );
    const cliAgentId = launch?.childSessionId;
    const refusal = await this.send(sessionId, message, cliAgentId);
    if (refusal) {
      await decideOnSession(this.store, session, { type: 'RecordSteerFailure', sessionId, error: refusal.message, subagentId: cliAgentId }, actor);
      throw refusal;
    }
    return { sessionId, target: cliAgentId ? 'subagent' : 'main', ...(cliAgentId ? { subagentId: cliAgentId } : {}), agentName, status: 'steered' };
  }

  /** The error to answer with when the CLI did not take the message. */
  private async send(sessionId: string, message: string, cliAgentId: string | undefined): Promise<Error | undefined> {
    try {
      if (!cliAgentId) {
        await this.cli.request('session.send', { sessionId, prompt: message, mode: 'immediate' }, STEER_REQUEST_TIMEOUT_MS);
        return undefined;
      }
      const answer = await this.cli.request<{ sent?: boolean; error?: string } | null>(
        'session.tasks.sendMessage',
        { sessionId, id: cliAgentId, message },
        STEER_REQUEST_TIMEOUT_MS,
      );
      if (answer?.sent) return undefined;
      // The sub-agent ended between the check and the send: a state, not a failure of the CLI.
      return new SessionStateError(
        `Sub-agent ${cliAgentId} of session ${sessionId} did not take the message (${answer?.error ?? 'it is no longer running'}); only a running sub-agent can be steered`,
        { sessionId, subagentId: cliAgentId },
      );
    } catch (error) {
      if (error instanceof CopilotCliConnectionLostError) {
        return new CopilotCliConnectionLostError(
          `The Copilot CLI went away before it took the steer; session ${sessionId} is interrupted: resume it with POST /api/sessions/${sessionId}/resume`,
          { sessionId },
        );
      }
      return new CliRequestFailedError(`The Copilot CLI did not take the steer: ${(error as Error).message}`, { sessionId });
    }
  }
}
