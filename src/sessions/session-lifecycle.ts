import { SYSTEM_ACTOR } from '../common';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { not, inArray } from 'drizzle-orm';
import { Subscription } from 'rxjs';
import { TeamAssembler } from '../agents';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { CopilotCliConnection, type CliExit, type CliSessionEvent } from '../copilot-cli';
import { ReadModelDatabase } from '../database';
import { EventStore, sessionIdOfStream } from '../event-store';
import { withProviderAddress } from './cli-provider-address';
import { HeldWork } from './held-work';
import { InstanceLease, type LostLease, type Lease, takeoverReason, LeaseMonitor, type TakeoverParticipation } from '../instances';
import { LiveSession } from './live-session';
import type { SessionConfig } from './session-config';
import { decideOnSession } from './session-command';
import { BETWEEN_TURNS, CLI_EVENT_PREFIX, type RecordedCliEventData, SessionEvents, type SessionStatus } from './session.events';
import { SessionRegistry } from './session-registry';
import { foreignSessionAppend } from './session-stream-appends';
import { WorkspaceCheckpoints } from './workspace-checkpoints';

/**
 * Ephemeral CLI events are mostly telemetry (model.*, background_tasks_changed...) and are not kept;
 * these are: the end of a turn, and token usage, which run accounting needs.
 */
const KEPT_EPHEMERAL = new Set(['session.idle', 'assistant.idle', 'assistant.usage', 'session.usage_info', 'session.title_changed']);

/**
 * How long a CLI record may wait for others to share its commit. The end of a turn is awaited (the caller's
 * event stream, a run's outcome, the session's next command): committed at once, taking the queue with it.
 * The rest of a turn's records wait up to 5 ms, which lets one-message-per-loop-turn traffic share commits.
 */
export function cliRecordDelayMs(type: string): number {
  return type === 'session.idle' || type === 'session.error' ? 0 : 5;
}

const ENDED_OR_INTERRUPTED: readonly string[] = ['interrupted', 'destroyed', 'failed'];

/** What taking a session here needs of its `sessions` row. */
interface SessionRowToTake {
  sessionId: string;
  config: string;
  status: string;
  protocolVersion: number;
}

/**
 * Keeps sessions and the CLI in step: records every CLI event of a known session into its stream,
 * marks sessions interrupted when the CLI dies, and at start reloads the sessions that exist (those
 * whose turn was under way interrupted: their CLI is gone with it; idle ones as they are, resumed by
 * their next message) so late child requests still resolve. With several instances: only
 * those no other running instance holds; a dead instance's sessions when its lease is claimed here;
 * and it lets go of this instance's own when its lease was lost.
 */
@Injectable()
export class SessionLifecycle implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SessionLifecycle.name);
  private readonly subscriptions: Subscription[] = [];
  private takeover?: TakeoverParticipation;

  constructor(
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly registry: SessionRegistry,
    private readonly db: ReadModelDatabase,
    private readonly team: TeamAssembler,
    private readonly lease: InstanceLease,
    private readonly monitor: LeaseMonitor,
    private readonly held: HeldWork,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly checkpoints: WorkspaceCheckpoints,
  ) {}

  onModuleInit(): void {
    this.takeover = this.monitor.join('sessions', (dead) => this.takeOver(dead));
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscriptions.push(
      this.cli.events$.subscribe((event) => this.record(event)),
      // Each live session's next command starts from what was committed on its stream (LiveSession.followCommitted).
      this.store.committed$.subscribe((event) => {
        const sessionId = sessionIdOfStream(event.streamId);
        if (sessionId !== undefined) this.registry.get(sessionId)?.followCommitted(event);
      }),
      this.cli.exits$.subscribe((exit) => void this.interruptAll(exit)),
      this.lease.lost$.subscribe((lost) => this.letGo(lost)),
    );
    await this.reloadSessions();
    this.takeover?.recovered();
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
      // The CLI names the model route's placeholder address when the provider is down: say which provider.
      payload: event.type === 'session.error' ? withProviderAddress(event.data ?? {}, this.config.cli.provider?.baseUrl) : (event.data ?? {}),
    };
    const recorded = { type: `${CLI_EVENT_PREFIX}${event.type}` as const, data };
    // At once, not at the record's commit: the end of a turn is seen by the next command straight away.
    session.apply([recorded]);
    if (session.config.workspace) this.checkpoints.noteCliEvent(sessionId, event, session.config.agentId ?? 'main');
    session.record(() =>
      this.store
        .appendMany([foreignSessionAppend(sessionId, [{ type: recorded.type, data: { ...data }, metadata: { by: SYSTEM_ACTOR } }])], {
          maxDelayMs: cliRecordDelayMs(event.type),
        })
        .catch((error: unknown) => this.logger.error({ err: error, sessionId, type: event.type }, 'could not record CLI event')),
    );
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
    const elsewhere = await this.lease.liveOtherIds();
    const { sessions } = this.db.tables;
    // Read before anything is served (bootstrap runs before the server listens): no create can register
    // a session between this read and the adds below.
    const all = await this.db.orm
      .select()
      .from(sessions)
      .where(not(inArray(sessions.status, ['destroyed', 'failed'])));
    // Another running instance's sessions are its own; the rest (this instance's previous incarnation's,
    // a dead instance's, unowned) are recovered here. On SQLite no other instance runs: all of them.
    const rows = all.filter((row) => !row.ownerInstance || !elsewhere.has(row.ownerInstance));
    for (const row of rows) {
      await this.take(row, `Switchboard restarted while the session was ${row.status}`);
    }
    if (rows.length > 0) {
      const betweenTurns = rows.filter((row) => BETWEEN_TURNS.has(row.status)).length;
      this.logger.log(
        { sessions: rows.length, interrupted: rows.length - betweenTurns, resumeOnNextMessage: betweenTurns, heldElsewhere: all.length - rows.length },
        'sessions reloaded',
      );
      // A CLI reached over TCP may have outlived us and still send late child requests: connect now.
      this.cli.ensureStarted().catch((error: unknown) => this.logger.warn({ err: error }, 'Copilot CLI not reachable at start'));
    }
  }

  /**
   * A session taken here from its row: loaded (the team as the agents are now, for late child
   * requests' allowlists; resume checks it strictly) and recorded interrupted when its turn (or its
   * create) was under way; one between turns stays as it is, to be resumed by its next message.
   */
  private async take(row: SessionRowToTake, reason: string): Promise<LiveSession> {
    let session = this.registry.get(row.sessionId);
    if (!session) {
      const stored = JSON.parse(row.config) as SessionConfig;
      const config: SessionConfig = { ...stored, subAgents: stored.subAgents ?? [] };
      const assembly = await this.team.assemble(config.agentId, config.subAgents);
      // Generation 0 never matches a running CLI: the session is resumed before it takes a message.
      // The read model's protocol version comes from session.started only: 0 means the CLI never created it.
      const cliCreated = row.protocolVersion > 0;
      const loaded = new LiveSession(row.sessionId, config, row.status as SessionStatus, 0, assembly.ok ? assembly.customAgents : [], cliCreated);
      // Another request may have taken it while the team was assembled: one LiveSession per session.
      session = this.registry.get(row.sessionId) ?? loaded;
      if (session === loaded) this.registry.add(loaded);
    }
    if (row.status !== 'interrupted' && !BETWEEN_TURNS.has(row.status)) await this.interrupt(session, reason);
    return session;
  }

  /**
   * A session no running instance holds and this one has not loaded (another instance took its
   * instance's lease over, or that instance is gone with nobody to claim it): taken here, as at start.
   */
  async adopt(row: SessionRowToTake, formerOwner: string | null): Promise<LiveSession> {
    const reason = formerOwner
      ? `instance ${formerOwner} is gone; resume the session on any instance`
      : 'no instance holds the session; resume it on any instance';
    return this.take(row, reason);
  }

  /** spec (issue 15): a dead instance's sessions, once this instance claimed its lease. */
  private async takeOver(dead: Lease): Promise<void> {
    const rows = await this.held.sessionsHeldBy(dead.instanceId);
    const reason = takeoverReason(dead, 'session');
    // Concurrently: the appends share group commits.
    await Promise.all(rows.map((row) => this.take(row, reason)));
    if (rows.length > 0)
      this.logger.warn(
        { instanceId: dead.instanceId, sessions: rows.length },
        'sessions of a dead instance taken over (those whose turn was under way interrupted)',
      );
  }

  /**
   * The lease was claimed by another instance, which records the sessions held under it interrupted:
   * here they only stop being this instance's (generation 0: a command on one asks who holds it now).
   */
  private letGo({ instanceId, reason }: LostLease): void {
    let held = 0;
    for (const session of this.registry.all()) {
      if (session.cliGeneration === 0) continue;
      held += 1;
      session.cliGeneration = 0;
      if (!ENDED_OR_INTERRUPTED.includes(session.status)) {
        session.apply([{ type: SessionEvents.interrupted, data: { reason, wasRunning: session.status === 'running' } }]);
      }
    }
    this.logger.error({ instanceId, sessions: held }, 'sessions of a lost lease let go');
  }
}
