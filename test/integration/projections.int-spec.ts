import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { AppModule } from '../../src/app.module';
import type { SwitchboardConfig } from '../../src/config/switchboard-config';
import { SqliteDatabase } from '../../src/database/sqlite-database';
import { EventStore } from '../../src/event-store/event-store';
import { AsyncProjectionRunner } from '../../src/projections/async-projection-runner';
import { RebuildProjection } from '../../src/projections/rebuild-projection/rebuild-projection.command';
import { makeTempDir } from '../fixtures/temp-dir';
import { testConfig } from '../fixtures/test-config';
import { waitUntil } from '../fixtures/wait-until';

async function boot(config: SwitchboardConfig): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: false });
  await app.init();
  return app;
}

async function appendSome(store: EventStore, streams: number, perStream: number, actor = 'tester') {
  const appends: Promise<unknown>[] = [];
  for (let s = 0; s < streams; s++) {
    for (let i = 0; i < perStream; i++) {
      appends.push(
        store.append(`thing-${s}`, 'any', [
          { type: i === 0 ? 'thing.created' : 'thing.changed', data: { s, i }, metadata: { actor, correlationId: `c-${s}` } },
        ]),
      );
    }
  }
  await Promise.all(appends);
}

function dump(database: SqliteDatabase, table: string): unknown[] {
  return database.connection.prepare(`SELECT * FROM ${table} ORDER BY 1`).all();
}

describe('projections', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let config: SwitchboardConfig;
  beforeEach(() => {
    tmp = makeTempDir();
    config = testConfig(tmp.dir);
  });
  afterEach(() => tmp.cleanup());

  it('keeps the inline read model in step with the log in the same transaction', async () => {
    const app = await boot(config);
    const store = app.get(EventStore);
    await appendSome(store, 5, 4);
    const rows = dump(app.get(SqliteDatabase), 'stream_summaries') as Array<{ stream_id: string; event_count: number }>;
    expect(rows.map((r) => [r.stream_id, r.event_count])).toEqual([0, 1, 2, 3, 4].map((s) => [`thing-${s}`, 4]));
    await app.close();
  });

  it('resumes an async projection from its checkpoint after a restart, applying each event once', async () => {
    const first = await boot(config);
    await appendSome(first.get(EventStore), 3, 10);
    const runner = first.get(AsyncProjectionRunner);
    await waitUntil(() => runner.position('audit-log') === 30, 'audit-log to reach 30');
    await first.close();

    // Events written while no runner is up (e.g. by another process) are picked up on the next start.
    const second = await boot(config);
    const store = second.get(EventStore);
    await appendSome(store, 2, 5, 'second-run');
    const runner2 = second.get(AsyncProjectionRunner);
    await waitUntil(() => runner2.position('audit-log') === 40, 'audit-log to reach 40');
    const audit = dump(second.get(SqliteDatabase), 'audit_log') as Array<{ global_position: number; actor: string }>;
    expect(audit.map((r) => r.global_position)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(audit.filter((r) => r.actor === 'second-run')).toHaveLength(10);
    await second.close();
  });

  it.each(['stream-summaries', 'audit-log'])('rebuilds %s from position 0 into tables equal to the live ones', async (name) => {
    const app = await boot(config);
    const store = app.get(EventStore);
    const database = app.get(SqliteDatabase);
    await appendSome(store, 7, 9);
    await waitUntil(() => app.get(AsyncProjectionRunner).position('audit-log') === 63, 'audit-log to catch up');
    const table = name === 'audit-log' ? 'audit_log' : 'stream_summaries';
    const live = dump(database, table);
    database.connection.prepare(`UPDATE ${table} SET ${name === 'audit-log' ? "actor = 'tampered'" : 'event_count = 0'}`).run();

    const progress: number[] = [];
    const result = await app.get(CommandBus).execute(new RebuildProjection(name, (p) => progress.push(p.applied)));
    expect(result).toEqual({ projection: name, eventsApplied: 63, position: 63 });
    expect(progress[progress.length - 1]).toBe(63);
    expect(dump(database, table)).toEqual(live);
    await app.close();
  });

  it('refuses to rebuild an unknown projection and names the known ones', async () => {
    const app = await boot(config);
    await expect(app.get(CommandBus).execute(new RebuildProjection('nope'))).rejects.toThrow(
      /Unknown projection nope; known projections: .*stream-summaries/,
    );
    await app.close();
  });
});
