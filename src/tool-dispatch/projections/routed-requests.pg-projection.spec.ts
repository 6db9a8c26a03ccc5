import fc from 'fast-check';
import { sessionStreamId } from '../../event-store';
import type { BatchInvariant } from '../../projections';
import { expectInvariantHolds, type LogEvent } from '../../../test/fixtures/batch-invariant-property';
import { RoutedRequestEvents } from '../routed-request.events';
import { routedRowsAreIndependent } from './routed-requests.pg-projection';
import { RoutedRequestsProjection } from './routed-requests.projection';

const kind = fc.constantFrom(
  RoutedRequestEvents.toolCallRouted,
  RoutedRequestEvents.toolCallDenied,
  RoutedRequestEvents.permissionDecided,
  RoutedRequestEvents.hookInvoked,
  RoutedRequestEvents.userInputAnswered,
);
/** Whole milliseconds mostly; a fraction (rounded in both forms) and, now and then, none (the handler's insert fails). */
const latency = fc.oneof({ weight: 10, arbitrary: fc.nat(5000) }, fc.constant(12.5), fc.constant(undefined));

const routedEvent: fc.Arbitrary<LogEvent> = fc
  .record({
    session: fc.constantFrom('a', 'b'),
    type: kind,
    latencyMs: latency,
    child: fc.option(fc.constant('child-1'), { nil: undefined }),
    args: fc.option(fc.oneof(fc.constant('raw text'), fc.constant({ path: 'src' })), { nil: undefined }),
  })
  .map(({ session, type, latencyMs, child, args }) => ({
    streamId: sessionStreamId(session),
    type,
    data: { via: 'tool.call', parentSessionId: session, childSessionId: child, toolName: 'grep', arguments: args, outcome: 'ok', latencyMs },
  }));

const routedLogs: fc.Arbitrary<LogEvent[][]> = fc.array(fc.array(routedEvent, { maxLength: 10 }), { minLength: 1, maxLength: 4 });

describe('routedRowsAreIndependent: what the routed-requests set-based form relies on, checked against RoutedRequestsProjection', () => {
  it('is the invariant the routed-requests projection names for its PostgreSQL form', () => {
    expect(new RoutedRequestsProjection().setBased.postgres.invariant).toBe(routedRowsAreIndependent);
  });

  it('the events the handler takes first, then the rest, leave the same rows', () => {
    expectInvariantHolds({ projection: new RoutedRequestsProjection(), table: 'routed_requests', orderBy: 'global_position', logs: routedLogs });
  });

  it('the check can fail: a batch that loses its last event leaves other rows', () => {
    const dropsLast: BatchInvariant = { name: 'dropsLast', statement: 'wrong on purpose', normalForm: (events) => events.slice(0, -1) };
    expect(() =>
      expectInvariantHolds({
        projection: new RoutedRequestsProjection(),
        invariant: dropsLast,
        table: 'routed_requests',
        orderBy: 'global_position',
        logs: routedLogs,
      }),
    ).toThrow(/dropsLast does not hold for routed-requests/);
  });
});
