import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CommittedEventPublisher } from './committed-event-publisher';
import { EventStore } from './event-store';
import { ProjectionRegistry } from './projection-registry';

@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [EventStore, ProjectionRegistry, CommittedEventPublisher],
  exports: [EventStore, ProjectionRegistry],
})
export class EventStoreModule {}
