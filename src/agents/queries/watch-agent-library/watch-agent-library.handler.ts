import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { filter, map, type Observable } from 'rxjs';
import { EventStore } from '../../../event-store';
import { AgentEvents, isAgentEvent } from '../../agent.events';
import { type AgentLibraryChange, WatchAgentLibrary } from './watch-agent-library.query';

const CHANGE_OF = {
  [AgentEvents.created]: 'created',
  [AgentEvents.updated]: 'updated',
  [AgentEvents.deleted]: 'deleted',
} as const;

@QueryHandler(WatchAgentLibrary)
export class WatchAgentLibraryHandler implements IQueryHandler<WatchAgentLibrary, Observable<AgentLibraryChange>> {
  constructor(private readonly store: EventStore) {}

  async execute(): Promise<Observable<AgentLibraryChange>> {
    return this.store.committed$.pipe(
      filter(isAgentEvent),
      map((event) => ({ agentId: event.data.id, change: CHANGE_OF[event.type], version: event.streamPosition, position: event.globalPosition })),
    );
  }
}
