import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Pool } from 'pg';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { EventStore } from './event-store';
import { PostgresEventStore } from './postgres/postgres-event-store';
import { ProjectionRegistry } from './projection-registry';
import { SqliteEventStore } from './sqlite/sqlite-event-store';

/**
 * The application injects the port, `EventStore`; this module binds it to the adapter the
 * configuration chose: `SqliteEventStore` on the SQLite file, or `PostgresEventStore` on the pool
 * (SWITCHBOARD_DATABASE_URL), whose inline projections are the registry's and whose tail starts
 * here, so an unreachable LISTEN stops the start. The adapter class is exported too, for the
 * dialect's own parts (the projection runners, rebuilds).
 * Reactions to committed events subscribe to the store itself (`subscribe(after)`: replay from a
 * position, then live, each event once), not to the CQRS EventBus: a reaction that restarts must
 * catch up from its checkpoint, which a bus cannot replay.
 */
@Module({})
export class EventStoreModule {
  static forRoot(config: SwitchboardConfig): DynamicModule {
    const adapter = config.postgres
      ? {
          provide: PostgresEventStore,
          inject: [Pool, ProjectionRegistry],
          useFactory: async (pool: Pool, registry: ProjectionRegistry) => {
            const store = new PostgresEventStore({ pool, registry });
            await store.start();
            return store;
          },
        }
      : SqliteEventStore;
    const adapterClass = config.postgres ? PostgresEventStore : SqliteEventStore;
    return {
      module: EventStoreModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [adapter, { provide: EventStore, useExisting: adapterClass }, ProjectionRegistry],
      exports: [EventStore, adapterClass, ProjectionRegistry],
    };
  }
}
