import type { NewEvent, StreamAppend } from '../../src/event-store/event-store.types';
import { sessionStreamId } from '../../src/event-store/stream-ids';
import { RoutedRequestEvents } from '../../src/tool-dispatch/routed-request.events';
import { RoutedRequestsProjection } from '../../src/tool-dispatch/projections/routed-requests.projection';
import { expectBatchFormWritesPerEventRows } from '../fixtures/batch-form-equivalence';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';

jest.setTimeout(120_000);

const routed = (type: string, data: Record<string, unknown>): NewEvent => ({
  type,
  data: { via: 'tool.call', parentSessionId: 'a', outcome: 'ok', latencyMs: 12, ...data },
});
const onSession = (id: string, ...events: NewEvent[]): StreamAppend => ({ streamId: sessionStreamId(id), expectedVersion: 'any', events });

/** Several routed requests of every kind a transaction, on two sessions, with and without their optional fields. */
function transactions(): StreamAppend[][] {
  return [
    [
      onSession(
        'a',
        routed(RoutedRequestEvents.toolCallRouted, { toolName: 'grep', arguments: { path: 'src' }, result: { matches: 3 } }),
        routed(RoutedRequestEvents.permissionDecided, { outcome: 'approved', reason: 'policy', latencyMs: 0.4 }),
        { type: RoutedRequestEvents.userInputRequested, data: { via: 'userInput.request', parentSessionId: 'a', outcome: 'asked', latencyMs: 0 } },
      ),
      onSession('b', routed(RoutedRequestEvents.hookInvoked, { parentSessionId: 'b', childSessionId: 'c', agentName: 'tester', arguments: 'raw' })),
    ],
    [onSession('a', routed(RoutedRequestEvents.userInputAnswered, { result: 'yes', latencyMs: 2500.5 }))],
    [
      onSession('b', routed(RoutedRequestEvents.toolCallDenied, { parentSessionId: 'b', toolName: 'rm', outcome: 'denied', reason: 'not allowed' })),
      onSession('a', routed(RoutedRequestEvents.toolCallRouted, { toolName: 'view', result: 'text result' })),
    ],
  ];
}

describe('routed requests on PostgreSQL: the batch form writes the rows the per-event projection writes', () => {
  let server: PostgresServer;

  beforeAll(async () => {
    server = await startPostgresServer();
  });

  afterAll(() => server?.stop());

  it('the same rows (kinds, arguments, results, reasons, latencies) after folding one log, transaction by transaction', async () => {
    const rows = await expectBatchFormWritesPerEventRows(server, {
      projection: new RoutedRequestsProjection(),
      table: 'routed_requests',
      orderBy: 'global_position',
      transactions: transactions(),
    });
    // The log did what it was written for: every routed request but the question asked has its row (bigint comes back as text).
    expect(rows).toHaveLength(6);
    expect(rows.map((row) => row.latency_ms)).toEqual(['12', '0', '12', '2501', '12', '12']);
  });
});
