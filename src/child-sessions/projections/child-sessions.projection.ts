import { and, eq } from 'drizzle-orm';
import type { ReadModelDatabase } from '../../database';
import type { StoredEvent } from '../../event-store';
import { type ProjectionWork, PerEventProjection, ReadModelProjection, run } from '../../projections';
import { type ChildMappedData, ChildSessionEvents, isChildSessionEvent } from '../child-session.events';

/** Inline: child -> parent/agent mappings and sub-agent launches, so they survive a restart. */
@ReadModelProjection()
export class ChildSessionsProjection extends PerEventProjection {
  readonly name = 'child-sessions';
  readonly mode = 'inline';
  readonly tables = ['childSessions', 'subagentInstances'] as const;
  readonly eventTypes = Object.values(ChildSessionEvents);

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    if (!isChildSessionEvent(event)) return;
    const { subagentInstances } = db.tables;
    switch (event.type) {
      case ChildSessionEvents.subagentStarted: {
        const d = event.data;
        yield* this.map(
          db,
          { parentSessionId: d.parentSessionId, childSessionId: d.childSessionId, agentName: d.agentName, via: d.via },
          event.recordedAt,
        );
        yield* run(
          db.orm
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
            }),
        );
        return;
      }
      case ChildSessionEvents.childMapped:
        yield* this.map(db, event.data, event.recordedAt);
        return;
      case ChildSessionEvents.subagentCompleted:
      case ChildSessionEvents.subagentFailed: {
        const d = event.data;
        yield* run(
          db.orm
            .update(subagentInstances)
            .set({
              status: event.type === ChildSessionEvents.subagentCompleted ? 'completed' : 'failed',
              error: d.error ?? null,
              endedAt: event.recordedAt,
              totalTokens: d.totalTokens ?? null,
              totalToolCalls: d.totalToolCalls ?? null,
              durationMs: d.durationMs ?? null,
            })
            .where(and(eq(subagentInstances.parentSessionId, d.parentSessionId), eq(subagentInstances.toolCallId, d.toolCallId))),
        );
        return;
      }
    }
  }

  private *map(db: ReadModelDatabase, d: ChildMappedData, at: string): ProjectionWork {
    yield* run(
      db.orm
        .insert(db.tables.childSessions)
        .values({ childSessionId: d.childSessionId, parentSessionId: d.parentSessionId, agentName: d.agentName, via: d.via, mappedAt: at })
        .onConflictDoNothing(),
    );
  }
}
