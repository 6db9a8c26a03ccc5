import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { not, inArray } from 'drizzle-orm';
import { Subscription } from 'rxjs';
import { TeamAssembler } from '../agents/team-assembler';
import { CopilotCliConnection, type CliExit } from '../copilot-cli/copilot-cli-connection';
import type { CliSessionEvent } from '../copilot-cli/cli-protocol';
import { ReadModelDatabase } from '../database/read-model-database';
import { EventStore } from '../event-store/event-store';
import { sessionStreamId } from '../event-store/stream-ids';
import { LiveSession } from './live-session';
import type { SessionConfig } from './session-config';
import { decideOnSession } from './session-command';
import { CLI_EVENT_PREFIX, type RecordedCliEventData, SessionEvents, type SessionStatus } from './session.events';
import { SessionRegistry } from './session-registry';

/**
 * Ephemeral CLI events are mostly telemetry (model.*, background_tasks_changed...) and are not kept;
 * these are: the end of a turn, and token usage, which run accounting needs.
 */
const KEPT_EPHEMERAL = new Set(['session.idle', 'assistant.idle', 'assistant.usage', 'session.usage_info', 'session.title_changed']);

/**
 * Keeps sessions and the CLI in step: records every CLI event of a known session into its stream,
 * marks sessions interrupted when the CLI dies, and at start reloads the sessions that exist
 * (interrupted: their CLI is gone) so late child requests still resolve.
 */
@Injectable()
export class SessionLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SessionLifecycle.name);
  private readonly subscriptions: Subscription[] = [];

  constructor(
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly registry: SessionRegistry,
    private readonly db: ReadModelDatabase,
    private readonly team: TeamAssembler,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscriptions.push(
      this.cli.events$.subscribe((event) => this.record(event)),
      this.cli.exits$.subscribe((exit) => void this.interruptAll(exit)),
    );
    await this.reloadSessions();
  }

  onModuleDestroy(): void {
    this.subscriptions.splice(0).forEach((s) => s.unsubscribe());
  }

  private record({ sessionId, event }: CliSessionEvent): void {
    const session = this.registry.get(sessionId);
    if (!session) {
      this.logger.debug({ sessionId, type: event.type }, 'event for a session Switchboard does not own');
      return;
    }
    if (event.ephemeral && !KEPT_EPHEMERAL.has(event.type)) return;
    const data: RecordedCliEventData = {
      ...(typeof event.agentId === 'string' && event.agentId ? { agentId: event.agentId } : {}),
      ...(typeof event.id === 'string' ? { cliEventId: event.id } : {}),
      ...(typeof event.timestamp === 'string' ? { timestamp: event.timestamp } : {}),
      payload: event.data ?? {},
    };
    const recorded = { type: `${CLI_EVENT_PREFIX}${event.type}` as const, data };
    // At once, not at the record's commit: the end of a turn is seen by the next command straight away.
    session.apply([recorded]);
    this.store
      // Nobody awaits these records: they may wait a few ms to share a commit with the rest of the burst.
      .append(sessionStreamId(sessionId), 'any', [{ type: recorded.type, data: { ...data } }], { maxDelayMs: 5 })
      .catch((error: unknown) => this.logger.error({ err: error, sessionId, type: event.type }, 'could not record CLI event'));
  }

  private async interruptAll(exit: CliExit): Promise<void> {
    const affected = this.registry.all().filter((s) => s.cliGeneration === exit.generation && !['interrupted', 'destroyed', 'failed'].includes(s.status));
    const reason = `The Copilot CLI exited (code ${exit.code ?? 'none'}, signal ${exit.signal ?? 'none'})`;
    await Promise.all(affected.map((session) => this.interrupt(session, reason)));
  }

  private async interrupt(session: LiveSession, reason: string): Promise<void> {
    // A fact the CLI's exit forces, still decided on the stream: a session destroyed meanwhile stays destroyed.
    const events = await decideOnSession(this.store, session, { type: 'InterruptSession', sessionId: session.sessionId, reason }, 'switchboard');
    const interrupted = events.find((e) => e.type === SessionEvents.interrupted);
    if (interrupted) this.logger.warn({ sessionId: session.sessionId, reason, wasRunning: interrupted.data.wasRunning }, 'session interrupted');
  }

  private async reloadSessions(): Promise<void> {
    const { sessions } = this.db.tables;
    // Read before anything is served (bootstrap runs before the server listens): no create can register
    // a session between this read and the adds below.
    const rows = await this.db.orm
      .select()
      .from(sessions)
      .where(not(inArray(sessions.status, ['destroyed', 'failed'])));
    for (const row of rows) {
      const stored = JSON.parse(row.config) as SessionConfig;
      const config: SessionConfig = { ...stored, subAgents: stored.subAgents ?? [] };
      // The team as the agents are now, for late child requests' allowlists; resume checks it strictly.
      const assembly = await this.team.assemble(config.agentId, config.subAgents);
      // Generation 0 never matches a running CLI: the session has to be resumed before it takes messages.
      // The read model's protocol version comes from session.started only: 0 means the CLI never created it.
      const cliCreated = row.protocolVersion > 0;
      const session = new LiveSession(row.sessionId, config, row.status as SessionStatus, 0, assembly.ok ? assembly.customAgents : [], cliCreated);
      this.registry.add(session);
      if (row.status !== 'interrupted') {
        await this.interrupt(session, `Switchboard restarted while the session was ${row.status}`);
      }
    }
    if (rows.length > 0) {
      this.logger.log({ sessions: rows.length }, 'sessions reloaded as interrupted');
      // A CLI reached over TCP may have outlived us and still send late child requests: connect now.
      this.cli.ensureStarted().catch((error: unknown) => this.logger.warn({ err: error }, 'Copilot CLI not reachable at start'));
    }
  }
}
