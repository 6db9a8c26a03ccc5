import { Injectable } from '@nestjs/common';
import { escapeIdentifier } from 'pg';
import { APPEND_LOCK_KEY, PostgresEventStore, readEventsAfter, applyInlineProjections } from '../../event-store';
import { pgProjectionOf, pgTableNames } from '../postgres-projection';
import type { Projection } from '../projection';
import { lockCheckpoint, moveCheckpoint } from '../pg-async-projection-runner';
import { ProjectionRebuilder } from './projection-rebuilder';
import type { RebuildProgress, RebuildProjectionResult } from './rebuild-projection.command';

const PAGE = 1000;

/**
 * One transaction on PostgreSQL. An inline projection holds the append lock through it, so no
 * instance appends (and writes the read model inline) before the rebuilt model is committed; an
 * async one holds its checkpoint row, so no runner of any instance applies a batch meanwhile. The
 * tables are emptied with DELETE, not TRUNCATE: readers keep seeing the old rows until COMMIT.
 * A projection with a PostgreSQL set-based form is replayed through it, a page at a time.
 */
@Injectable()
export class PgProjectionRebuilder extends ProjectionRebuilder {
  constructor(private readonly store: PostgresEventStore) {
    super();
  }

  rebuild(projection: Projection, onProgress?: (progress: RebuildProgress) => void): Promise<RebuildProjectionResult> {
    const form = pgProjectionOf(projection);
    return this.store.transaction(async (client) => {
      if (projection.mode === 'inline') await client.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK_KEY.toString()]);
      else await lockCheckpoint(client, projection.name);
      for (const table of pgTableNames(projection)) await client.query(`DELETE FROM ${escapeIdentifier(table)}`);
      const { rows } = await client.query<{ head: number | string | null }>('SELECT max(global_position) AS head FROM events');
      const total = Number(rows[0].head ?? 0);
      let position = 0;
      let applied = 0;
      for (;;) {
        const page = await readEventsAfter(client, position, PAGE);
        if (page.length === 0) break;
        await applyInlineProjections(client, [form], page);
        position = page[page.length - 1].globalPosition;
        applied += page.length;
        onProgress?.({ applied, total });
      }
      if (projection.mode === 'async') await moveCheckpoint(client, projection.name, position);
      return { projection: projection.name, eventsApplied: applied, position };
    });
  }
}
