import type { StreamAppend } from '../../src/event-store/event-store.types';
import { ModelCallsProjection } from '../../src/model-calls/projections/model-calls.projection';
import { expectBatchFormWritesPerEventRows } from '../fixtures/batch-form-equivalence';
import { callFailed, callFinished, callInterrupted, callRefused, callStarted, type ModelCallLogEvent } from '../fixtures/model-call-events';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';

jest.setTimeout(120_000);

/** The events as one append each, in the order given: a transaction may hold a call's events in any order. */
const appends = (...events: ModelCallLogEvent[]): StreamAppend[] =>
  events.map(({ streamId, type, data }) => ({ streamId, expectedVersion: 'any', events: [{ type, data }] }));

/**
 * Transactions of several calls each, in every shape the form folds or leaves to the handler: a start
 * alone, an end alone (its start committed before), a start and its end together, an end before a
 * start that creates the row (it finds none) and before a start of a row already there (it updates
 * it), a second start (nothing), an end without any start, and the calls with a refusal, an
 * interruption or two ends, which the handler takes.
 */
function transactions(): StreamAppend[][] {
  return [
    appends(callStarted('a', 'kept'), callStarted('b'), callFinished('b', 'truncated'), callFinished('c'), callStarted('c', 'kept'), callRefused('d')),
    appends(
      callFinished('a'),
      callStarted('e', 'truncated'),
      callFinished('c', 'kept'),
      callFailed('f'),
      callRefused('b'),
      callStarted('d'),
      callFinished('e', 'kept', 7),
    ),
    appends(
      callFinished('g', undefined, 3),
      callStarted('g', 'kept'),
      callStarted('h'),
      callFailed('h'),
      callStarted('a'),
      callFinished('a', 'truncated', 9),
    ),
    appends(
      callStarted('i'),
      callInterrupted('i'),
      callFinished('h', 'kept'),
      callFinished('h', undefined, 5),
      callStarted('j', 'kept'),
      callInterrupted('e'),
    ),
    appends(callFinished('j', 'kept', 11), callStarted('j', 'truncated'), callFinished('i'), callStarted('k', 'truncated'), callFinished('k', 'kept')),
  ];
}

describe('model calls on PostgreSQL: the batch form writes the rows the per-event projection writes', () => {
  let server: PostgresServer;

  beforeAll(async () => {
    server = await startPostgresServer();
  });

  afterAll(() => server?.stop());

  it('the same rows (status, answer, tokens, cost, bodies, times) after folding one log, transaction by transaction', async () => {
    const rows = await expectBatchFormWritesPerEventRows(server, {
      projection: new ModelCallsProjection(),
      table: 'model_calls',
      orderBy: 'call_id',
      transactions: transactions(),
    });
    // The log did what it was written for: g's early end found no row, a's second end reached its row through a second start
    // (bigint columns come back as text).
    const byCall = Object.fromEntries(rows.map((row) => [row.call_id, row]));
    expect(Object.keys(byCall)).toEqual(['a', 'b', 'c', 'd', 'e', 'g', 'h', 'i', 'j', 'k']);
    expect(byCall.g).toMatchObject({ status: 'in_flight', ended_at: null, bodies: 'kept' });
    expect(byCall.a).toMatchObject({ status: 'succeeded', output_tokens: '9', bodies: 'truncated' });
    expect(byCall.j).toMatchObject({ status: 'succeeded', output_tokens: '11', bodies: 'kept' });
    expect(byCall.k).toMatchObject({ status: 'succeeded', bodies: 'truncated' });
  });
});
