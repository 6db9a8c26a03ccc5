import { StreamSummariesProjection } from '../../src/event-log/projections/stream-summaries.projection';
import type { StreamAppend } from '../../src/event-store/event-store.types';
import { expectBatchFormWritesPerEventRows } from '../fixtures/batch-form-equivalence';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';

jest.setTimeout(120_000);

const on = (streamId: string, ...types: string[]): StreamAppend => ({
  streamId,
  expectedVersion: 'any',
  events: types.map((type) => ({ type, data: {} })),
});

/**
 * Transactions where streams interleave (a stream named again later in the same transaction), a
 * stream's first events and later ones, and a transaction of one stream: the upsert folds each
 * stream's events into one delta, which must add up to what the per-event upserts write.
 */
function transactions(): StreamAppend[][] {
  return [
    [on('run-a', 'Started', 'Moved'), on('agent-b', 'Created'), on('run-a', 'Moved'), on('session-c', 'Opened')],
    [on('agent-b', 'Renamed'), on('run-a', 'Ended'), on('agent-b', 'Renamed', 'Renamed'), on('session-d', 'Opened', 'Closed')],
    [on('session-c', 'Closed')],
  ];
}

describe('stream-summaries on PostgreSQL: the set-based form writes the rows the per-event projection writes', () => {
  let server: PostgresServer;

  beforeAll(async () => {
    server = await startPostgresServer();
  });

  afterAll(() => server?.stop());

  it('the same rows (count, first and last time, last event) after folding one log, transaction by transaction', async () => {
    const rows = await expectBatchFormWritesPerEventRows(server, {
      projection: new StreamSummariesProjection(),
      table: 'stream_summaries',
      orderBy: 'stream_id',
      transactions: transactions(),
    });
    expect(rows.map((row) => [row.stream_id, row.event_count, row.last_event_type])).toEqual([
      ['agent-b', 4, 'Renamed'],
      ['run-a', 4, 'Ended'],
      ['session-c', 2, 'Closed'],
      ['session-d', 2, 'Closed'],
    ]);
  });
});
