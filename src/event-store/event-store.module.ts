import { DynamicModule, Module } from '@nestjs/common';
import { Pool } from 'pg';
import type { SwitchboardConfig } from '../config';
import { EventStore } from './event-store';
import { PostgresEventStore } from './postgres/postgres-event-store';
import { InlineProjectionHook } from './inline-projection-hook';
import { SqliteEventStore } from './sqlite/sqlite-event-store';

/**
 * The application injects the port, `EventStore`; this module binds it to the adapter the
 * configuration chose: `SqliteEventStore` on the SQLite file, or `PostgresEventStore` on the pool
 * (SWITCHBOARD_DATABASE_URL), whose tail starts here, so an unreachable LISTEN stops the start. Either
 * runs the `InlineProjectionHook` in each append's transaction: ProjectionsModule provides it (the
 * store knows no projection). The adapter class is exported too, for the
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
          inject: [Pool, InlineProjectionHook],
          useFactory: async (pool: Pool, inline: InlineProjectionHook) => {
            const store = new PostgresEventStore({ pool, inlineProjections: [inline] });
            await store.start();
            return store;
          },
        }
      : SqliteEventStore;
    const adapterClass = config.postgres ? PostgresEventStore : SqliteEventStore;
    return {
      module: EventStoreModule,
      global: true,
      providers: [adapter, { provide: EventStore, useExisting: adapterClass }],
      exports: [EventStore, adapterClass],
    };
  }
}
