import type { QueryBus } from '@nestjs/cqrs';
import DataLoader from 'dataloader';
import { ListStreamsEvents } from '../../event-log';
import type { StoredEvent } from '../../event-store';
import { batchScheduleFn, groupedLoader } from '../../graphql-api';
import { ListThreadSubagents, type SubagentInstanceRow } from '../../sessions';

export interface EventsKey {
  streamIds: string[];
  after: number;
  limit: number;
}

/** A run's sub-agent launches and events, for one GraphQL operation (`loaders.of(RunDetailLoaders)`). */
export class RunDetailLoaders {
  readonly subagents: DataLoader<string, SubagentInstanceRow[]>;
  readonly events: DataLoader<EventsKey, StoredEvent[], string>;

  constructor(queryBus: QueryBus) {
    this.subagents = new DataLoader((threads) => queryBus.execute(new ListThreadSubagents(threads)), { batchScheduleFn });
    this.events = groupedLoader(
      (key) => JSON.stringify([key.streamIds, key.after, key.limit]),
      () => 'all',
      (keys) => queryBus.execute(new ListStreamsEvents(keys)),
    );
  }
}
