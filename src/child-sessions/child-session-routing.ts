import { SYSTEM_ACTOR } from '../common';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { Subscription } from 'rxjs';
import { CopilotCliConnection, type CliSessionEvent } from '../copilot-cli';
import { ReadModelDatabase } from '../database';
import { EventStore } from '../event-store';
import { type LiveSession, SessionRegistry, type ForeignSessionEvent, foreignSessionAppend, SubagentLaunchesReadModel } from '../sessions';
import { type ChildIdSource, ChildSessionEvents } from './child-session.events';
import { ChildSessionResolver, type Resolution } from './child-session-resolver';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * The resolver inside the service: feeds it from `subagent.*` events of both protocols, persists
 * every mapping as an event (so a restarted Switchboard still resolves late child requests), and
 * applies the cleanup contract when a parent goes away or the client stops.
 */
@Injectable()
export class ChildSessionRouting implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger(ChildSessionRouting.name);
  readonly resolver: ChildSessionResolver<LiveSession>;
  private readonly subscriptions: Subscription[] = [];

  constructor(
    private readonly registry: SessionRegistry,
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly db: ReadModelDatabase,
    private readonly launches: SubagentLaunchesReadModel,
  ) {
    this.resolver = new ChildSessionResolver(registry);
  }

  onApplicationBootstrap(): void {
    this.subscriptions.push(
      this.cli.events$.subscribe((event) => this.observe(event)),
      this.registry.removed$.subscribe((parentId) => {
        const children = this.resolver.removeParent(parentId);
        this.logger.debug({ parentId, children: children.length }, 'child mappings removed with their parent');
      }),
    );
  }

  onModuleDestroy(): void {
    this.subscriptions.splice(0).forEach((s) => s.unsubscribe());
  }

  /** spec: Cleanup Contract, client stop. */
  onApplicationShutdown(): void {
    this.resolver.clear();
  }

  /**
   * resolveSession with a fallback to the read model: after a restart the maps are empty, but a
   * child of a parent that still exists is found in `child_sessions` and put back in memory. An id the
   * maps know is resolved at the call, without waiting; only an unknown one waits for the read.
   */
  async resolve(sessionId: string): Promise<Resolution<LiveSession>> {
    if (!this.registry.get(sessionId) && !this.resolver.childToParent.has(sessionId)) await this.loadChild(sessionId);
    return this.resolver.resolveSession(sessionId);
  }

  isToolAllowedForChild(childSessionId: string, toolName: string): boolean {
    return this.resolver.isToolAllowedForChild(childSessionId, toolName);
  }

  agentOf(childSessionId: string): string | undefined {
    return this.resolver.childToAgent.get(childSessionId);
  }

  /**
   * Protocol 3 names a child by its task id (`agentId` on the event envelope) and, inside request
   * data, by its native session id; the second is learned here and mapped to the same agent.
   */
  learnAlias(parentSessionId: string, agentId: string | undefined, nativeId: string | undefined, via: ChildIdSource): void {
    if (!agentId || !nativeId || nativeId === agentId || this.resolver.childToParent.has(nativeId)) return;
    const agentName = this.resolver.childToAgent.get(agentId);
    if (agentName === undefined) return;
    this.resolver.mapChild(nativeId, parentSessionId, agentName);
    this.persist(parentSessionId, {
      type: ChildSessionEvents.childMapped,
      data: { parentSessionId, childSessionId: nativeId, agentName, via },
    });
  }

  private observe({ sessionId: parentId, event: raw }: CliSessionEvent): void {
    if (!this.registry.get(parentId)) return;
    // An ill-typed agentId names no child: handled as if absent here, refused by the request router.
    const event = typeof raw.agentId === 'string' && raw.agentId.length > 0 ? raw : { ...raw, agentId: undefined };
    const data = event.data ?? {};
    switch (event.type) {
      case 'subagent.started': {
        const toolCallId = text(data.toolCallId) ?? event.id ?? 'unknown';
        const agentName = text(data.agentName) ?? 'unknown';
        // Protocol 2 (spec) names the child in data.remoteSessionId; protocol 3 on the envelope's agentId.
        const [childSessionId, via]: [string, ChildIdSource] = text(data.remoteSessionId)
          ? [data.remoteSessionId as string, 'remoteSessionId']
          : event.agentId
            ? [event.agentId, 'agentId']
            : [toolCallId, 'toolCallId'];
        this.resolver.registerSubagentStarted(parentId, { agentName, toolCallId, childSessionId, startedAt: new Date() });
        this.persist(parentId, {
          type: ChildSessionEvents.subagentStarted,
          data: {
            parentSessionId: parentId,
            childSessionId,
            via,
            toolCallId,
            agentName,
            agentDisplayName: text(data.agentDisplayName),
            model: text(data.model),
            executionMode: text(data.executionMode),
          },
        });
        return;
      }
      case 'subagent.completed':
      case 'subagent.failed': {
        const toolCallId = text(data.toolCallId) ?? 'unknown';
        const instance = this.resolver.registerSubagentEnded(parentId, toolCallId);
        this.persist(parentId, {
          type: event.type === 'subagent.completed' ? ChildSessionEvents.subagentCompleted : ChildSessionEvents.subagentFailed,
          data: {
            parentSessionId: parentId,
            childSessionId: instance?.childSessionId ?? event.agentId,
            toolCallId,
            agentName: text(data.agentName) ?? instance?.agentName ?? 'unknown',
            error: text(data.error) ?? (typeof data.error === 'object' ? JSON.stringify(data.error) : undefined),
            totalTokens: count(data.totalTokens),
            totalToolCalls: count(data.totalToolCalls),
            durationMs: count(data.durationMs),
          },
        });
        return;
      }
      case 'external_tool.requested':
        this.learnAlias(parentId, event.agentId, text(data.ownerNativeSessionId), 'ownerNativeSessionId');
        return;
      case 'permission.requested':
        this.learnAlias(parentId, event.agentId, text(data.ownerSessionId), 'ownerSessionId');
        return;
    }
  }

  private persist(parentId: string, event: ForeignSessionEvent): void {
    this.store
      .appendMany([foreignSessionAppend(parentId, [{ ...event, metadata: { actor: 'copilot-cli', correlationId: parentId, by: SYSTEM_ACTOR } }])])
      .catch((error: unknown) => this.logger.error({ err: error, parentId, type: event.type }, 'could not record child mapping'));
  }

  /**
   * The child's mapping, then its parent's running launches (the sessions' `SubagentLaunchesReadModel`),
   * put in memory once both reads are back.
   */
  private async loadChild(childSessionId: string): Promise<void> {
    const { childSessions } = this.db.tables;
    const [row] = await this.db.orm.select().from(childSessions).where(eq(childSessions.childSessionId, childSessionId)).limit(1);
    const launches = row ? await this.launches.runningIn(row.parentSessionId) : [];
    // Checked against memory as it is after the read: a parent destroyed meanwhile dropped its children
    // (nothing comes back), and what another resolve or a live subagent.started put back is kept as it is.
    if (!row || !this.registry.get(row.parentSessionId)) return;
    if (!this.resolver.childToParent.has(row.childSessionId)) this.resolver.mapChild(row.childSessionId, row.parentSessionId, row.agentName);
    const known = this.resolver.subagentInstances.get(row.parentSessionId);
    for (const i of launches) {
      if (known?.has(i.toolCallId)) continue;
      this.resolver.registerSubagentStarted(i.parentSessionId, {
        agentName: i.agentName,
        toolCallId: i.toolCallId,
        childSessionId: i.childSessionId,
        startedAt: new Date(i.startedAt),
      });
    }
    this.logger.log({ childSessionId, parentSessionId: row.parentSessionId }, 'child mapping reloaded from the read model');
  }
}
