import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { filter, type Observable } from 'rxjs';
import { textOf } from '../../../common';
import { EventStore, type StoredEvent, runIdOfStream, runStreamId } from '../../../event-store';
import { RunsReadModel } from '../../../run-lineage';
import { UnknownRunError } from '../../run.errors';
import { RunEvents } from '../../run.events';
import { WatchRunEvents } from './watch-run-events.query';

@QueryHandler(WatchRunEvents)
export class WatchRunEventsHandler implements IQueryHandler<WatchRunEvents, Observable<StoredEvent>> {
  constructor(
    private readonly runs: RunsReadModel,
    private readonly store: EventStore,
  ) {}

  async execute({ runId, includeDescendants, after }: WatchRunEvents): Promise<Observable<StoredEvent>> {
    const root = await this.runs.find(runId);
    // The code REST answers for the same run (GET /api/runs/:id): unknown_run.
    if (!root) throw new UnknownRunError(runId);
    const members = new Set([runId]);
    if (includeDescendants) {
      for (const id of await this.runs.subtreeIds(root.path)) members.add(id);
    }
    const [first] = await this.store.readStream(runStreamId(runId), { limit: 1 });
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
