import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, eq, gte, lt } from 'drizzle-orm';
import { filter, type Observable } from 'rxjs';
import { textOf } from '../../../common/text-of';
import { runs } from '../../../database/schema';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { EventStore } from '../../../event-store/event-store';
import type { StoredEvent } from '../../../event-store/event-store.types';
import { UnknownRunError } from '../../../delegation/run.errors';
import { RunEvents } from '../../../delegation/run.events';
import { runIdOfStream, runStreamId } from '../../../event-store/stream-ids';
import { subtreeRange } from '../../run-lineage';
import { WatchRunEvents } from './watch-run-events.query';

@QueryHandler(WatchRunEvents)
export class WatchRunEventsHandler implements IQueryHandler<WatchRunEvents, Observable<StoredEvent>> {
  constructor(
    private readonly database: SqliteDatabase,
    private readonly store: EventStore,
  ) {}

  async execute({ runId, includeDescendants, after }: WatchRunEvents): Promise<Observable<StoredEvent>> {
    const root = this.database.orm.select({ path: runs.path }).from(runs).where(eq(runs.runId, runId)).get();
    // The code REST answers for the same run (GET /api/runs/:id): unknown_run.
    if (!root) throw new UnknownRunError(runId);
    const members = new Set([runId]);
    if (includeDescendants) {
      const { from, to } = subtreeRange(root.path);
      for (const row of this.database.orm.select({ runId: runs.runId }).from(runs).where(and(gte(runs.path, from), lt(runs.path, to))).all()) {
        members.add(row.runId);
      }
    }
    const first = this.store.readStream(runStreamId(runId), { limit: 1 })[0];
    const start = after ?? Math.max(0, (first?.globalPosition ?? 1) - 1);
    return this.store.subscribe(start).pipe(
      filter((event) => {
        const id = runIdOfStream(event.streamId);
        if (id === undefined) return false;
        // A descendant started while watching: its run.started carries its lineage path.
        if (includeDescendants && event.type === RunEvents.started && textOf(event.data.path).startsWith(root.path)) members.add(id);
        return members.has(id);
      }),
    );
  }
}
