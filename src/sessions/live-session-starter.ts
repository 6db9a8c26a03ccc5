import { Inject, Injectable, Logger } from '@nestjs/common';
import { type TeamAssembly, TeamAssembler } from '../agents';
import { InvalidInputError } from '../common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { CopilotCliConnection, CopilotCliConnectionLostError } from '../copilot-cli';
import { handleCommand, EventStore, streamPages, sessionStreamId } from '../event-store';
import { InstanceLease } from '../instances';
import { Workspaces } from '../workspaces';
import { cliSessionParams } from './cli-session-options';
import type { SessionSummary } from './commands/create-session/create-session.command';
import { LiveSession } from './live-session';
import type { LiveSessionSlot } from './live-session-limit';
import type { SessionConfig } from './session-config';
import { decideOnSession, sessionCommandMetadata } from './session-command';
import { sessionDecider } from './session.decider';
import { SessionEvents } from './session.events';
import { CliRequestFailedError, SessionTeamInvalidError } from './session.errors';
import { SessionRegistry } from './session-registry';

/** How the CLI answers session.resume for an id it has no history of. */
const SESSION_NOT_FOUND = /session not found/i;

/** A session to bring live: a new one from its configuration, or a recorded one on the current CLI. */
export type LiveSessionStart =
  | {
      kind: 'create';
      sessionId: string;
      config: SessionConfig;
      actor: string | undefined;
      /** Given back once the session is registered and counted by its own status. */
      slot: LiveSessionSlot;
    }
  | { kind: 'resume'; session: LiveSession; actor: string | undefined };

/** The team assembled for a start, and the session it is checked against. */
type SuccessfulAssembly = Extract<TeamAssembly, { ok: true }>;

/**
 * Brings a session live on this instance's CLI, once for create and resume: assemble the team (a
 * failure is recorded and nothing reaches the CLI) → ask the CLI → map a lost connection to a 503 that
 * leaves the session interrupted, anything the CLI answered to a 502 → record the start.
 *
 * Writes: `session.created` is recorded with `handleCommand` (there is no live session to take turns on
 * before it exists); every later event of the start, success or failure, is decided with
 * `decideOnSession` on the live session, in its turn after the session's other commands.
 */
@Injectable()
export class LiveSessionStarter {
  private readonly logger = new Logger(LiveSessionStarter.name);

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly registry: SessionRegistry,
    private readonly team: TeamAssembler,
    private readonly lease: InstanceLease,
    private readonly workspaces: Workspaces,
  ) {}

  start(request: LiveSessionStart): Promise<SessionSummary> {
    return request.kind === 'create' ? this.create(request) : this.resume(request.session, request.actor);
  }

  /**
   * Records the intent (`session.created`) before asking the CLI, so events the CLI emits while creating
   * already have a stream to land in; the outcome is `session.started` or `session.start_failed`.
   */
  private async create({ sessionId, config, actor, slot }: Extract<LiveSessionStart, { kind: 'create' }>): Promise<SessionSummary> {
    // Held by this instance from its first event: an instance that dies while creating it leaves it to a takeover.
    const metadata = sessionCommandMetadata(sessionId, actor, this.lease.instanceId);
    const created = await handleCommand(
      this.store,
      sessionDecider,
      sessionStreamId(sessionId),
      { type: 'CreateSession', sessionId, config },
      { metadata },
    );
    const recorded = LiveSession.fromState(sessionId, created.state, this.cli.generation);
    recorded.commandBase = { state: created.state, version: created.version };

    const assembly = await this.assembled(recorded, 'start', actor, this.lease.instanceId);
    const clash = assembly.customAgents.find((t) => config.customAgents.some((a) => a.name === t.name));
    if (clash) {
      const message = `customAgents defines ${clash.name}, which is also one of the session's sub-agents; rename one of them`;
      await decideOnSession(this.store, recorded, { type: 'RecordStartFailure', sessionId, error: message }, actor, this.lease.instanceId);
      throw new InvalidInputError(message, { sessionId });
    }

    // The team is known before the CLI has the session: child requests while it creates resolve against it.
    const session = LiveSession.fromState(sessionId, created.state, this.cli.generation, assembly.customAgents);
    session.commandBase = recorded.commandBase;
    try {
      await this.cli.ensureStarted();
      session.cliGeneration = this.cli.generation;
      this.registry.add(session);
      slot.release(); // counted by its own status from here
      const params = cliSessionParams(sessionId, config, this.config.cli, session.customAgents, assembly.mcpServers, this.cli.modelRoute());
      await this.cli.request('session.create', params);
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
    return { sessionId, status: 'active', model: config.model, protocolVersion: this.cli.protocolVersion };
  }

  /**
   * `session.resume` on the current CLI with the full configuration again: the CLI keeps the
   * conversation on disk but forgets tools, agents and the model provider when it restarts. A session
   * the CLI has no history of, where none was lost, is created now from its recorded configuration
   * instead of failing every resume: one the CLI never created (the service died between recording
   * `session.created` and the CLI's answer), and one that never got a message (the CLI writes a session
   * to disk with its first message, so a CLI restart forgets an unused one). A session that had a
   * conversation the CLI lost stays a 502: recreating it would carry on without its context, silently.
   */
  private async resume(session: LiveSession, actor: string | undefined): Promise<SessionSummary> {
    const { sessionId } = session;
    const assembly = await this.assembled(session, 'resume', actor);
    const customAgents = [...session.config.customAgents, ...assembly.customAgents];
    // issue 42: a worktree removed after the retention is made again from its branch before the CLI works in it.
    if (session.config.workspace) await this.workspaces.ensurePresent(sessionId);
    let createdInCli = false;
    // Started first: whether the session names the real provider depends on whether this CLI routes model calls.
    const params = await this.cli
      .ensureStarted()
      .then(() => cliSessionParams(sessionId, session.config, this.config.cli, customAgents, assembly.mcpServers, this.cli.modelRoute()))
      .catch((error: unknown) => {
        throw this.resumeFailure(sessionId, 'resume', error);
      });
    try {
      await this.cli.request('session.resume', params);
    } catch (error) {
      if (!SESSION_NOT_FOUND.test((error as Error).message) || (await this.hadConversation(session))) throw this.resumeFailure(sessionId, 'resume', error);
      this.logger.warn(
        { sessionId, cliCreated: session.cliCreated },
        'the CLI has no history of this session and it never had a message; creating it from its recorded configuration',
      );
      try {
        await this.cli.request('session.create', params);
      } catch (createError) {
        throw this.resumeFailure(sessionId, 'create', createError);
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
        instanceId: this.lease.instanceId,
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
   * The session's team from the agents as they are now (FR-5), mapped to customAgents (FR-4); a team
   * that does not assemble is recorded as the start's (or resume's) failure and thrown: nothing reaches the CLI.
   */
  private async assembled(session: LiveSession, action: 'start' | 'resume', actor: string | undefined, instanceId?: string): Promise<SuccessfulAssembly> {
    const { config, sessionId } = session;
    const assembly = await this.team.assemble(config.agentId, config.subAgents, config.mcpServers);
    if (assembly.ok) return assembly;
    const error = new SessionTeamInvalidError(sessionId, action, assembly.problems);
    const failure = { sessionId, error: error.message, problems: assembly.problems };
    await decideOnSession(
      this.store,
      session,
      action === 'start' ? { type: 'RecordStartFailure', ...failure } : { type: 'RecordResumeFailure', ...failure },
      actor,
      instanceId,
    );
    throw error;
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
  private resumeFailure(sessionId: string, action: 'resume' | 'create', error: unknown): Error {
    if (error instanceof CopilotCliConnectionLostError) {
      return new CopilotCliConnectionLostError(`The Copilot CLI went away while resuming session ${sessionId}; it is still interrupted: resume it again`, {
        sessionId,
      });
    }
    return new CliRequestFailedError(`The Copilot CLI could not ${action} session ${sessionId}: ${(error as Error).message}`, { sessionId });
  }
}
