import fc from 'fast-check';
import type { BatchInvariant } from '../../projections';
import { expectInvariantHolds, type LogEvent } from '../../../test/fixtures/batch-invariant-property';
import { callFailed, callFinished, callInterrupted, callRefused, callStarted } from '../../../test/fixtures/model-call-events';
import { callsAreIndependent } from './model-calls.pg-projection';
import { ModelCallsProjection } from './model-calls.projection';

const CALLS = ['a', 'b', 'c'];
const call = fc.constantFrom(...CALLS);
const bodies = fc.constantFrom<'kept' | 'truncated' | undefined>('kept', 'truncated', undefined);

/** Every kind of model-call event, in any order: ends before their start, second starts, refusals of started calls. */
const modelCallEvent: fc.Arbitrary<LogEvent> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(call, bodies).map(([id, kept]) => callStarted(id, kept)) },
  { weight: 3, arbitrary: fc.tuple(call, bodies, fc.nat(90)).map(([id, answer, tokens]) => callFinished(id, answer, tokens)) },
  call.map(callFailed),
  call.map(callRefused),
  call.map(callInterrupted),
);

const modelCallLogs: fc.Arbitrary<LogEvent[][]> = fc.array(fc.array(modelCallEvent, { maxLength: 10 }), { minLength: 1, maxLength: 5 });

describe('callsAreIndependent: what the model-calls set-based form relies on, checked against ModelCallsProjection', () => {
  it('is the invariant the model-calls projection names for its PostgreSQL form', () => {
    expect(new ModelCallsProjection().setBased.postgres.invariant).toBe(callsAreIndependent);
  });

  it('the calls the handler takes first, then the folded calls each in order, leave the same rows', () => {
    expectInvariantHolds({ projection: new ModelCallsProjection(), table: 'model_calls', orderBy: 'call_id', logs: modelCallLogs });
  });

  it('the check can fail: ends moved before their calls start leave other rows', () => {
    const endsFirst: BatchInvariant = {
      name: 'endsFirst',
      statement: 'wrong on purpose',
      normalForm: (events) => [...events.filter((e) => e.type !== 'model_call.started'), ...events.filter((e) => e.type === 'model_call.started')],
    };
    expect(() =>
      expectInvariantHolds({
        projection: new ModelCallsProjection(),
        invariant: endsFirst,
        table: 'model_calls',
        orderBy: 'call_id',
        logs: modelCallLogs,
      }),
    ).toThrow(/endsFirst does not hold for model-calls/);
  });
});
