import * as path from 'node:path';
import type { StoredEvent } from '../../src/event-store/event-store.types';
import { PerEventProjection, type ProjectionWork } from '../../src/projections/projection';
import { ProjectionRegistry } from '../../src/projections/projection-registry';
import { SqliteAsyncProjectionRunner } from '../../src/projections/sqlite-async-projection-runner';
import { openTestEventStore, type TestEventStore } from '../fixtures/event-store-fixture';
import { testConfig } from '../fixtures/test-config';
import { waitUntil } from '../fixtures/wait-until';

jest.setTimeout(60_000);

/** An async projection that notes, for each event it applies, the turn of the event loop it ran in. */
class TurnProbe extends PerEventProjection {
  readonly name = 'turn-probe';
  readonly mode = 'async' as const;
  readonly tables = [] as const;
  readonly turnOf = new Map<number, number>();
  constructor(private readonly turn: () => number) {
    super();
  }
  // eslint-disable-next-line require-yield -- it writes nothing: what it records is when it ran
  *apply(event: StoredEvent): ProjectionWork {
    this.turnOf.set(event.globalPosition, this.turn());
  }
}

describe('an async projection catching up on SQLite', () => {
  let es: TestEventStore;
  afterEach(() => es?.close());

  it('applies a long backlog in transactions of at most 500 events, the event loop running between them', async () => {
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn += 1;
      if (ticking) setImmediate(tick);
    };
    const probe = new TurnProbe(() => turn);
    const registry = new ProjectionRegistry();
    registry.register(probe);
    es = openTestEventStore(undefined, registry);
    for (let i = 0; i < 6; i++) {
      await es.store.append(
        `stream-${i}`,
        'no_stream',
        Array.from({ length: 1_000 }, (_, n) => ({ type: 'probed', data: { n } })),
      );
    }
    const config = testConfig(path.dirname(es.file));
    const runner = new SqliteAsyncProjectionRunner(es.database, es.store, registry, config);
    tick();
    runner.onApplicationBootstrap();
    try {
      await waitUntil(() => probe.turnOf.size === 6_000, 'the backlog applied', 30_000);
    } finally {
      ticking = false;
      runner.onModuleDestroy();
    }
    const perTurn = new Map<number, number>();
    for (const t of probe.turnOf.values()) perTurn.set(t, (perTurn.get(t) ?? 0) + 1);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(500);
    expect(runner.position('turn-probe')).toBe(6_000);
  });
});
