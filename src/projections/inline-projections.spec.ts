import type { ClientBase } from 'pg';
import type { ReadModelDatabase, ReadTableName } from '../database';
import type { StoredEvent } from '../event-store';
import { InlineProjections } from './inline-projections';
import { pgProjectionOf } from './postgres-projection';
import { type BatchInvariant, type Projection, perEventProjection, type ProjectionWork, type SetBasedForms } from './projection';
import { ProjectionRegistry } from './projection-registry';

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
function recording(name: string, calls: string[], eventTypes?: string[], setBased?: SetBasedForms): Projection {
  return perEventProjection({
    name,
    mode: 'inline',
    tables: ['sessions'] as ReadTableName[],
    eventTypes,
    setBased,
    // eslint-disable-next-line require-yield
    *apply(event): ProjectionWork {
      calls.push(`${name}:${event.globalPosition}`);
    },
  });
}

const hookOver = (...projections: Projection[]) => {
  const registry = new ProjectionRegistry();
  projections.forEach((projection) => registry.register(projection));
  return new InlineProjections(registry);
};

const client = { query: () => Promise.reject(new Error('no statement expected')) } as unknown as ClientBase;
const noDatabase = {} as ReadModelDatabase;
const asIs: BatchInvariant = { name: 'asIs', statement: 'the batch in its order', normalForm: (events) => [...events] };

describe('the inline projections hook', () => {
  it('inline: event by event in global order, each projection that handles it in registration order, as on SQLite', async () => {
    const calls: string[] = [];
    const hook = hookOver(recording('a', calls), recording('b', calls, ['Wanted']));
    await hook.apply(client, [at(1, 'Wanted'), at(2, 'Other'), at(3, 'Wanted')]);
    expect(calls).toEqual(['a:1', 'b:1', 'a:2', 'a:3', 'b:3']);
    calls.length = 0;
    hook.applySync(noDatabase, [at(1, 'Wanted'), at(2, 'Other'), at(3, 'Wanted')]);
    expect(calls).toEqual(['a:1', 'b:1', 'a:2', 'a:3', 'b:3']);
  });

  it('a projection with a batch form runs it once over the events it handles, after the per-event ones', async () => {
    const calls: string[] = [];
    const setBased: SetBasedForms = {
      postgres: {
        invariant: asIs,
        apply: (_client, events) => {
          calls.push(`batch:${events.map((e) => e.globalPosition).join(',')}`);
          return Promise.resolve();
        },
      },
    };
    const hook = hookOver(recording('a', calls), recording('b', calls, ['Wanted'], setBased));
    await hook.apply(client, [at(1, 'Wanted'), at(2, 'Other'), at(3, 'Wanted')]);
    expect(calls).toEqual(['a:1', 'a:2', 'a:3', 'batch:1,3']);
    // SQLite has no set-based form: the same projection runs event by event there.
    calls.length = 0;
    hook.applySync(noDatabase, [at(1, 'Wanted'), at(2, 'Other'), at(3, 'Wanted')]);
    expect(calls).toEqual(['a:1', 'b:1', 'a:2', 'a:3', 'b:3']);
  });

  it('is empty while the registry has no inline projection: the PostgreSQL store then skips its round trip', () => {
    expect(hookOver().empty()).toBe(true);
    expect(hookOver(recording('a', [])).empty()).toBe(false);
  });

  it('async: one PgProjection per projection, named like it, with its SQL table names and event types', async () => {
    const calls: string[] = [];
    const single = pgProjectionOf(recording('a', calls, ['Wanted']));
    expect(single).toMatchObject({ name: 'a', tables: ['sessions'], eventTypes: ['Wanted'] });
    await single.apply(client, [at(4, 'Wanted'), at(5, 'Wanted')]);
    expect(calls).toEqual(['a:4', 'a:5']);
  });
});
