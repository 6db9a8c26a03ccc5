import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EventStore } from './event-store';
import { ProjectionRegistry } from './projection-registry';

/**
 * Reactions to committed events subscribe to the store itself (`subscribe(after)`: replay from a
 * position, then live, each event once), not to the CQRS EventBus: a reaction that restarts must
 * catch up from its checkpoint, which a bus cannot replay.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [EventStore, ProjectionRegistry],
  exports: [EventStore, ProjectionRegistry],
})
export class EventStoreModule {}
