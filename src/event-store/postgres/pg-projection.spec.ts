import type { ClientBase } from 'pg';
import type { ReadTableName } from '../../database/read-model-database';
import type { StoredEvent } from '../event-store.types';
import type { Projection, ProjectionWork } from '../projection';
import { inlinePgProjection, type PgProjection, pgProjectionOf } from './pg-projection';

const at = (globalPosition: number, type: string): StoredEvent => ({
  globalPosition,
  eventId: `e${globalPosition}`,
  streamId: 's-1',
  streamPosition: globalPosition,
  type,
  data: {},
  metadata: {},
  recordedAt: '2026-01-01T00:00:00.000Z',
});

/** A projection that only records what it was given: no statement, so no connection is needed. */
function recording(name: string, calls: string[], eventTypes?: string[]): Projection {
  return {
    name,
    mode: 'inline',
    tables: ['sessions'] as ReadTableName[],
    eventTypes,
    // eslint-disable-next-line require-yield
    *apply(event): ProjectionWork {
      calls.push(`${name}:${event.globalPosition}`);
    },
  };
}

const client = { query: () => Promise.reject(new Error('no statement expected')) } as unknown as ClientBase;

describe('registry projections as PgProjections', () => {
  it('inline: event by event in global order, each projection that handles it in registration order, as on SQLite', async () => {
    const calls: string[] = [];
    const hook = inlinePgProjection([recording('a', calls), recording('b', calls, ['Wanted'])], () => undefined);
    await hook.apply(client, [at(1, 'Wanted'), at(2, 'Other'), at(3, 'Wanted')]);
    expect(calls).toEqual(['a:1', 'b:1', 'a:2', 'a:3', 'b:3']);
    expect(hook.tables).toEqual(['sessions', 'sessions']);
  });

  it('a projection with a batch form runs it once over the events it handles, after the per-event ones', async () => {
    const calls: string[] = [];
    const batch: PgProjection = {
      name: 'b',
      tables: ['b_rows'],
      eventTypes: ['Wanted'],
      apply: (_client, events) => {
        calls.push(`batch:${events.map((e) => e.globalPosition).join(',')}`);
        return Promise.resolve();
      },
    };
    const hook = inlinePgProjection([recording('a', calls), recording('b', calls, ['Wanted'])], (name) => (name === 'b' ? batch : undefined));
    await hook.apply(client, [at(1, 'Wanted'), at(2, 'Other'), at(3, 'Wanted')]);
    expect(calls).toEqual(['a:1', 'a:2', 'a:3', 'batch:1,3']);
  });

  it('async: one PgProjection per projection, named like it, with its SQL table names and event types', async () => {
    const calls: string[] = [];
    const single = pgProjectionOf(recording('a', calls, ['Wanted']));
    expect(single).toMatchObject({ name: 'a', tables: ['sessions'], eventTypes: ['Wanted'] });
    await single.apply(client, [at(4, 'Wanted'), at(5, 'Wanted')]);
    expect(calls).toEqual(['a:4', 'a:5']);
  });
});
