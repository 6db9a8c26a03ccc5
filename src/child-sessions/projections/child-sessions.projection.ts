import { and, eq } from 'drizzle-orm';
import { childSessions, subagentInstances } from '../../database/schema';
import type { Orm } from '../../database/sqlite-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import { type Projection, ReadModelProjection } from '../../event-store/projection';
import { type ChildMappedData, ChildSessionEvents, isChildSessionEvent } from '../child-session.events';

/** Inline: child -> parent/agent mappings and sub-agent launches, so they survive a restart. */
@ReadModelProjection()
export class ChildSessionsProjection implements Projection {
  readonly name = 'child-sessions';
  readonly mode = 'inline';
  readonly tables = [childSessions, subagentInstances];
  readonly eventTypes = Object.values(ChildSessionEvents);

  apply(event: StoredEvent, orm: Orm): void {
    if (!isChildSessionEvent(event)) return;
    switch (event.type) {
      case ChildSessionEvents.subagentStarted: {
        const d = event.data;
        this.map(orm, { parentSessionId: d.parentSessionId, childSessionId: d.childSessionId, agentName: d.agentName, via: d.via }, event.recordedAt);
        orm
          .insert(subagentInstances)
          .values({
            parentSessionId: d.parentSessionId,
            toolCallId: d.toolCallId,
            agentName: d.agentName,
            childSessionId: d.childSessionId,
            status: 'running',
            startedAt: event.recordedAt,
          })
          .onConflictDoUpdate({
            target: [subagentInstances.parentSessionId, subagentInstances.toolCallId],
            set: { status: 'running', childSessionId: d.childSessionId, startedAt: event.recordedAt, endedAt: null },
          })
          .run();
        return;
      }
      case ChildSessionEvents.childMapped:
        this.map(orm, event.data, event.recordedAt);
        return;
      case ChildSessionEvents.subagentCompleted:
      case ChildSessionEvents.subagentFailed: {
        const d = event.data;
        orm
          .update(subagentInstances)
          .set({
            status: event.type === ChildSessionEvents.subagentCompleted ? 'completed' : 'failed',
            error: d.error ?? null,
            endedAt: event.recordedAt,
            totalTokens: d.totalTokens ?? null,
            totalToolCalls: d.totalToolCalls ?? null,
            durationMs: d.durationMs ?? null,
          })
          .where(and(eq(subagentInstances.parentSessionId, d.parentSessionId), eq(subagentInstances.toolCallId, d.toolCallId)))
          .run();
        return;
      }
    }
  }

  private map(orm: Orm, d: ChildMappedData, at: string): void {
    orm
      .insert(childSessions)
      .values({ childSessionId: d.childSessionId, parentSessionId: d.parentSessionId, agentName: d.agentName, via: d.via, mappedAt: at })
      .onConflictDoNothing()
      .run();
  }
}
