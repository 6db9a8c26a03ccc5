import { Pool } from 'pg';
import { actingAs } from '../../src/common/acting-actor';
import type { Actor } from '../../src/common/actor';
import { PostgresReadModels } from '../../src/database/postgres-read-models';
import { AuditLogProjection } from '../../src/event-log/projections/audit-log.projection';
import { ListAuditLogHandler } from '../../src/event-log/queries/list-audit-log/list-audit-log.handler';
import { ListAuditLog } from '../../src/event-log/queries/list-audit-log/list-audit-log.query';
import type { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { runProjectionAsync } from '../../src/projections/projection';
import { openPostgresEventStore } from '../fixtures/postgres-event-store-fixture';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';

const ada: Actor = { kind: 'user', id: 'https://idp.example#ada', name: 'Ada', via: 'console' };
const bot: Actor = { kind: 'key', id: 'k-1', name: 'nightly-ci', via: 'api' };

/**
 * issue 27 on PostgreSQL: the store stamps each append with the actor it runs as, the audit-log
 * projection writes its kind, id and name into the actor columns (migration audit_actor), and the
 * audit query filters on them. A row from before the migration reads as the api actor.
 */
describe('audit log actor columns (PostgreSQL)', () => {
  let server: PostgresServer;
  let store: PostgresEventStore;
  let pool: Pool;
  let handler: ListAuditLogHandler;

  beforeAll(async () => {
    server = await startPostgresServer();
    const url = await server.createDatabase();
    store = await openPostgresEventStore(url);
    pool = new Pool({ connectionString: url, max: 2 });
    const readModels = new PostgresReadModels(pool);
    await actingAs(ada, () => store.append('session-s1', 'no_stream', [{ type: 'session.steered', data: { sessionId: 's1' } }]));
    await actingAs(bot, () => store.append('run-r1', 'no_stream', [{ type: 'run.stopped', data: { runId: 'r1' } }]));
    await store.append('session-s1', 1, [{ type: 'cli.session.idle', data: {} }]);
    const projection = new AuditLogProjection();
    for (const event of await store.readAll({ after: 0, limit: 100 })) await runProjectionAsync(projection.apply(event, readModels));
    // A row the projection wrote before the migration added the columns: their defaults are the api actor.
    await pool.query("INSERT INTO audit_log (global_position, stream_id, event_type, recorded_at) VALUES (1000, 'legacy-1', 'legacy.noted', 'now')");
    handler = new ListAuditLogHandler(readModels);
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await store?.close();
    server?.stop();
  });

  const entries = async (filter: ConstructorParameters<typeof ListAuditLog>[0]) =>
    (await handler.execute(new ListAuditLog(filter, 0, 100))).entries.map((e) => [e.eventType, e.actorKind, e.actorId, e.actorName]);

  it('records who did each event in the actor columns and filters by actor id and kind', async () => {
    expect(await entries({ actor: ada.id })).toEqual([['session.steered', 'user', ada.id, 'Ada']]);
    expect(await entries({ actorKind: 'key', eventType: 'run.stopped' })).toEqual([['run.stopped', 'key', 'k-1', 'nightly-ci']]);
    expect(await entries({ actorKind: 'system' })).toEqual([['cli.session.idle', 'system', 'switchboard', 'Switchboard']]);
  });

  it('reads a row from before the actor columns as the api actor', async () => {
    expect(await entries({ actor: 'api' })).toEqual([['legacy.noted', 'key', 'api', 'api']]);
  });
});
