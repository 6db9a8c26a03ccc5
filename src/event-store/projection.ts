import { applyDecorators, Injectable, SetMetadata } from '@nestjs/common';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Orm } from '../database/sqlite-database';
import type { StoredEvent } from './event-store.types';

/**
 * inline: applied inside the append's transaction, so its read model is never behind its events
 * and never half-written. async: applied after commit by the projection runner, checkpointed.
 */
export type ProjectionMode = 'inline' | 'async';

export interface Projection {
  readonly name: string;
  readonly mode: ProjectionMode;
  /** The read-model tables this projection owns; a rebuild empties them and replays from position 0. */
  readonly tables: readonly SQLiteTable[];
  /** Event types it handles; unset means every event. */
  readonly eventTypes?: readonly string[];
  /** Synchronous by contract: it runs inside a better-sqlite3 transaction. */
  apply(event: StoredEvent, orm: Orm): void;
}

export function projectionHandles(projection: Projection, event: StoredEvent): boolean {
  return projection.eventTypes === undefined || projection.eventTypes.includes(event.type);
}

export const READ_MODEL_PROJECTION = 'switchboard:read-model-projection';

/** Marks a provider as a projection: the ProjectionRegistry finds and registers it when the app starts. */
export function ReadModelProjection(): ClassDecorator {
  return applyDecorators(Injectable(), SetMetadata(READ_MODEL_PROJECTION, true));
}
