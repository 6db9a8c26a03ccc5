import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EventStore } from './event-store';
import { ProjectionRegistry } from './projection-registry';
import { SqliteEventStore } from './sqlite/sqlite-event-store';

/**
 * The application injects the port, `EventStore`; this module binds it to the adapter.
 * Reactions to committed events subscribe to the store itself (`subscribe(after)`: replay from a
 * position, then live, each event once), not to the CQRS EventBus: a reaction that restarts must
 * catch up from its checkpoint, which a bus cannot replay.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [SqliteEventStore, { provide: EventStore, useExisting: SqliteEventStore }, ProjectionRegistry],
  exports: [EventStore, SqliteEventStore, ProjectionRegistry],
})
export class EventStoreModule {}
