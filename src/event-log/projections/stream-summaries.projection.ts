import { Injectable, OnModuleInit } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { streamSummaries } from '../../database/schema';
import type { Orm } from '../../database/sqlite-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import type { Projection } from '../../event-store/projection';
import { ProjectionRegistry } from '../../event-store/projection-registry';

/** Category of a stream id: the part before the first '-' (`session-42` -> `session`). */
export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash > 0 ? streamId.slice(0, dash) : streamId;
}

/** Inline: one row per stream with its event count and latest event, always in step with the log. */
@Injectable()
export class StreamSummariesProjection implements Projection, OnModuleInit {
  readonly name = 'stream-summaries';
  readonly mode = 'inline';
  readonly tables = [streamSummaries];

  constructor(private readonly registry: ProjectionRegistry) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  apply(event: StoredEvent, orm: Orm): void {
    orm
      .insert(streamSummaries)
      .values({
        streamId: event.streamId,
        category: streamCategory(event.streamId),
        eventCount: 1,
        lastEventType: event.type,
        lastGlobalPosition: event.globalPosition,
        firstRecordedAt: event.recordedAt,
        lastRecordedAt: event.recordedAt,
      })
      .onConflictDoUpdate({
        target: streamSummaries.streamId,
        set: {
          eventCount: sql`${streamSummaries.eventCount} + 1`,
          lastEventType: event.type,
          lastGlobalPosition: event.globalPosition,
          lastRecordedAt: event.recordedAt,
        },
      })
      .run();
  }
}
