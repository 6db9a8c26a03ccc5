import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { Subscription } from 'rxjs';
import { currentActor, type Actor, SYSTEM_ACTOR } from '../common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { ReadModelDatabase } from '../database';
import { handleCommand, EventStore, approvalStreamId, sessionIdOfStream } from '../event-store';
import { LineageLookup } from '../run-lineage';
import { HeldWork, SessionRegistry, SessionEvents } from '../sessions';
import { approvalDecider, type ApprovalCommand } from './approval.decider';
import { ApprovalSettledError } from './approval.errors';
import type { ApprovalDecision, ApprovalScope, PermissionAskedData } from './approval.events';
import type { DecisionSource } from './decision-source';

/** What the router knows of a request that must be asked. */
export interface ApprovalQuestion {
  sessionId: string;
  childSessionId?: string;
  agentName?: string;
  kind: string;
  toolName?: string;
  arguments: unknown;
  via: string;
  requestId?: string;
}

/** The answer the CLI gets: the model reads `reason` when it is denied. */
export interface ApprovalAnswer {
  approved: boolean;
  reason: string;
  decidedBy: DecisionSource;
  /** issue 27: who decided (the person's actor; Switchboard for a timeout). */
  decider?: Actor;
}

export interface ApprovalDecisionInput {
  decision: ApprovalDecision;
  scope: ApprovalScope;
  reason?: string;
  decidedBy: 'console' | 'api' | 'timeout';
}

const SESSION_ENDED = new Set<string>([SessionEvents.interrupted, SessionEvents.destroyed]);

/**
 * issue 14: permission requests that wait for a person. `ask` records `permission.asked` on the
 * request's own `approval-<id>` stream and holds the CLI's request (its promise) until a decision
 * through the API, the timeout (denied, with that reason), or the session ending (expired). At
 * start, requests a previous process left pending are expired: the CLI that asked is gone.
 */
/** Decisions a person makes (through the console or another API client): recorded as the request's actor. */
const PERSON_SOURCES: ReadonlySet<string> = new Set(['console', 'api']);

@Injectable()
export class ApprovalBroker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ApprovalBroker.name);
  private readonly waiting = new Map<string, { sessionId: string; settle: (answer: ApprovalAnswer) => void; timer: NodeJS.Timeout }>();
  private readonly timeoutMs: number;
  private subscription?: Subscription;

  constructor(
    private readonly store: EventStore,
    private readonly db: ReadModelDatabase,
    private readonly registry: SessionRegistry,
    private readonly held: HeldWork,
    private readonly lineages: LineageLookup,
    @Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig,
  ) {
    this.timeoutMs = config.approvals.timeoutMs;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = this.registry.removed$.subscribe((sessionId) => void this.expireFor(sessionId, `session ${sessionId} was destroyed`));
    this.subscription.add(
      this.store.committed$.subscribe((event) => {
        const sessionId = SESSION_ENDED.has(event.type) ? sessionIdOfStream(event.streamId) : undefined;
        if (sessionId) void this.expireFor(sessionId, `session ${sessionId} ended (${event.type}) before a decision`);
      }),
    );
    const { approvals } = this.db.tables;
    // The decider reads each stream again: one settled since this read is left as it is (expire is a no-op there).
    const pending = await this.db.orm
      .select({ approvalId: approvals.approvalId, sessionId: approvals.sessionId })
      .from(approvals)
      .where(eq(approvals.status, 'pending'));
    // A request another running instance's CLI still holds waits there for its decision.
    const left = [];
    for (const row of pending) if ((await this.held.sessionHolder(row.sessionId))?.holder.kind !== 'elsewhere') left.push(row);
    for (const { approvalId } of left) {
      await this.run(approvalId, { type: 'expire', approvalId, reason: 'the service restarted while the request waited; the CLI no longer holds it' });
    }
    if (left.length > 0) this.logger.warn({ approvals: left.length }, 'approvals left pending by the previous process recorded as expired');
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
  }

  /**
   * The reason an earlier `scope: "session"` approval answers this request, if one does (`sessionGrant`).
   * Read from the projection, so it holds after a restart.
   */
  grantFor(sessionId: string, question: { kind: string; toolName?: string }): Promise<string | undefined> {
    return sessionGrant(this.db, sessionId, question);
  }

  /** Records the request and resolves once it is decided, timed out or expired. */
  async ask(question: ApprovalQuestion): Promise<ApprovalAnswer> {
    const approvalId = randomUUID();
    const answered = new Promise<ApprovalAnswer>((resolve) => {
      const timer = setTimeout(() => {
        // The timer was set by whatever asked; the timeout's decision is Switchboard's all the same (run() says so).
        const reason = `no decision within ${this.timeoutMs} ms (SWITCHBOARD_APPROVAL_TIMEOUT_MS)`;
        this.decide(approvalId, { decision: 'deny', scope: 'once', reason, decidedBy: 'timeout' }).catch((error: unknown) => {
          if (!(error instanceof ApprovalSettledError)) this.logger.error({ err: error, approvalId }, 'could not record the approval timeout');
        });
      }, this.timeoutMs);
      timer.unref();
      this.waiting.set(approvalId, { sessionId: question.sessionId, settle: resolve, timer });
    });
    const asked: PermissionAskedData = { approvalId, ...question, ...(await this.lineageOf(question)) };
    try {
      await this.run(approvalId, { type: 'ask', asked });
    } catch (error) {
      this.settle(approvalId, { approved: false, reason: 'the request could not be recorded for approval', decidedBy: 'switchboard' });
      throw error;
    }
    return answered;
  }

  /** A person's decision (or the timeout's). Throws 404 / 409 through the decider. */
  async decide(approvalId: string, input: ApprovalDecisionInput): Promise<void> {
    await this.run(approvalId, { type: 'decide', approvalId, ...input });
    const by = input.decidedBy === 'timeout' ? 'denied' : `${input.decision === 'approve' ? 'approved' : 'denied'} by ${input.decidedBy}`;
    this.settle(approvalId, {
      approved: input.decision === 'approve',
      reason: input.decidedBy === 'timeout' ? `${by}: ${input.reason}` : input.reason ? `${by}: ${input.reason}` : by,
      decidedBy: input.decidedBy,
      decider: PERSON_SOURCES.has(input.decidedBy) ? currentActor() : SYSTEM_ACTOR,
    });
  }

  /** Every request still waiting on a session that ended. */
  async expireFor(sessionId: string, reason: string): Promise<void> {
    for (const [approvalId, entry] of [...this.waiting]) {
      if (entry.sessionId !== sessionId) continue;
      try {
        await this.run(approvalId, { type: 'expire', approvalId, reason });
      } catch (error) {
        this.logger.error({ err: error, approvalId }, 'could not record the approval as expired');
      }
      this.settle(approvalId, { approved: false, reason: `expired: ${reason}`, decidedBy: 'expired' });
    }
  }

  private settle(approvalId: string, answer: ApprovalAnswer): void {
    const entry = this.waiting.get(approvalId);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.waiting.delete(approvalId);
    entry.settle(answer);
  }

  private run(approvalId: string, command: ApprovalCommand) {
    return handleCommand(this.store, approvalDecider, approvalStreamId(approvalId), command, {
      retries: 3,
      metadata: (state) => ({
        actor: command.type === 'decide' ? command.decidedBy : 'switchboard',
        correlationId: state.asked?.sessionId,
        // A person's decision is theirs (the request's actor); a timeout, an expiry or the request itself is Switchboard's.
        ...(command.type === 'decide' && PERSON_SOURCES.has(command.decidedBy) ? {} : { by: SYSTEM_ACTOR }),
      }),
    });
  }

  /**
   * Run, root run and the agents from the root down to the one that asked (`LineageLookup`), led by
   * the agent of the live session that started the root run and ended by the sub-agent that asked.
   */
  private async lineageOf(question: ApprovalQuestion): Promise<Pick<PermissionAskedData, 'runId' | 'rootRunId' | 'lineagePath'>> {
    const child = question.agentName ? [question.agentName] : [];
    const run = await this.lineages.lineageOfSession(question.sessionId);
    if (!run) return { lineagePath: [this.registry.get(question.sessionId)?.config.agentId ?? 'main', ...child] };
    const owner = run.rootOwnerSessionId ? this.registry.get(run.rootOwnerSessionId)?.config.agentId : undefined;
    return { runId: run.runId, rootRunId: run.rootRunId, lineagePath: [...(owner ? [owner] : []), ...run.agentPath, ...child] };
  }
}

/**
 * The reason an earlier `scope: "session"` approval answers a request, if one does: the same kind on
 * the same session (and, for custom tools, the same tool); the first such approval names it.
 */
export async function sessionGrant(db: ReadModelDatabase, sessionId: string, question: { kind: string; toolName?: string }): Promise<string | undefined> {
  const { approvals } = db.tables;
  const [row] = await db.orm
    .select({ decidedBy: approvals.decidedBy, approvalId: approvals.approvalId })
    .from(approvals)
    .where(
      and(
        eq(approvals.sessionId, sessionId),
        eq(approvals.status, 'decided'),
        eq(approvals.decision, 'approve'),
        eq(approvals.scope, 'session'),
        eq(approvals.kind, question.kind),
        // A custom tool is granted by name; any other kind as a whole (the "that kind").
        question.kind !== 'custom-tool'
          ? undefined
          : question.toolName === undefined
            ? isNull(approvals.toolName)
            : eq(approvals.toolName, question.toolName),
      ),
    )
    .orderBy(asc(approvals.askedPosition))
    .limit(1);
  return row ? `approved for the rest of the session by ${row.decidedBy} (approval ${row.approvalId})` : undefined;
}
