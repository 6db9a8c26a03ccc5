import { actorOfMetadata } from '../../common';
import { and, eq } from 'drizzle-orm';
import type { ReadModelDatabase } from '../../database';
import { type StoredEvent, pauseTargetOfStream } from '../../event-store';
import { type ProjectionWork, PerEventProjection, ReadModelProjection, run } from '../../projections';
import { isPauseEvent, PauseEvents } from '../pause.events';

/** Inline: a pause is in the table in the commit that records it, so a restart loads every open one. */
@ReadModelProjection()
export class PausesProjection extends PerEventProjection {
  readonly name = 'pauses';
  readonly mode = 'inline';
  readonly tables = ['pauses'] as const;
  readonly eventTypes = Object.values(PauseEvents);

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    if (!isPauseEvent(event)) return;
    const target = pauseTargetOfStream(event.streamId);
    if (!target) return;
    const { pauses } = db.tables;
    if (event.type === PauseEvents.paused) {
      const d = event.data;
      yield* run(
        db.orm
          .insert(pauses)
          .values({
            pauseId: d.pauseId,
            target: target.target,
            targetId: target.id,
            runPath: d.runPath ?? null,
            pausedBy: d.pausedBy,
            pausedByActor: JSON.stringify(actorOfMetadata(event.metadata)),
            reason: d.reason ?? null,
            pausedAt: d.pausedAt,
            pausedPosition: event.globalPosition,
          })
          .onConflictDoNothing(),
      );
      return;
    }
    const d = event.data;
    yield* run(
      db.orm
        .update(pauses)
        .set({
          unpausedAt: event.recordedAt,
          unpausedBy: d.unpausedBy,
          unpausedByActor: JSON.stringify(actorOfMetadata(event.metadata)),
          pausedMs: d.pausedMs,
        })
        .where(and(eq(pauses.pauseId, d.pauseId), eq(pauses.targetId, target.id))),
    );
  }
}
