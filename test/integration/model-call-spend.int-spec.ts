import type { ReadModelDatabase } from '../../src/database/read-model-database';
import { ModelCallsReadModel, type ModelCallRow } from '../../src/model-calls/model-calls-read-model';
import { modelCallRow } from '../fixtures/model-call-rows';
import { type ReadModelTarget, readModelTargets } from '../fixtures/read-model-targets';

jest.setTimeout(120_000);

let position = 0;
/** A model call of the run at `runPath` (`/<root>/…/<run>/`), as the projection writes it. */
function call(runPath: string, over: Partial<ModelCallRow> = {}): ModelCallRow {
  position += 1;
  const runId = runPath.split('/').filter(Boolean).at(-1) as string;
  return modelCallRow({
    callId: `call-${position}`,
    startedPosition: position,
    sessionId: `sub-agent-${runId}`,
    cliAgentId: `sub-agent-${runId}`,
    agentName: 'worker',
    runId,
    rootRunId: runPath.split('/')[1],
    runPath,
    lineagePath: '["worker"]',
    inputTokens: 200,
    outputTokens: 100,
    finishReason: 'stop',
    cost: 0.4,
    currency: 'USD',
    instanceId: 'i1',
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:01.000Z',
    ...over,
  });
}

/**
 * What budgets and run views read of the model-call ledger, on SQLite and PostgreSQL: a run's own spend
 * and a subtree's, one statement for many of each; in-flight and refused calls spent nothing known, a call
 * without a price is counted as unpriced, never as 0 cost.
 */
describe.each(readModelTargets())('model-call spend on %s', (_name, openTarget) => {
  let target: ReadModelTarget;
  let db: ReadModelDatabase;
  let calls: ModelCallsReadModel;

  beforeAll(async () => {
    target = await openTarget();
    db = target.db;
    calls = new ModelCallsReadModel(db);
    await db.orm.insert(db.tables.modelCalls).values([
      call('/r1/'),
      call('/r1/'),
      call('/r1/c1/'),
      call('/r1/c1/', { model: 'unlisted', cost: null, currency: null }),
      call('/r1/c1/', { status: 'in_flight', inputTokens: null, outputTokens: null, cost: null }),
      call('/r1/c1/', { status: 'refused', inputTokens: null, outputTokens: null, cost: null }),
      call('/r1-other/', { cost: 9 }),
      // issue 39: calls a stop cancelled while they waited for the provider: no tokens. Of an unpriced
      // model, their cost is unknown (never 0); of a priced one, 0 in the table's currency (costOf).
      call('/r2/', { status: 'cancelled', model: 'unlisted', inputTokens: null, outputTokens: null, cost: null, currency: null }),
      call('/r2/c2/', { status: 'cancelled', inputTokens: null, outputTokens: null, cost: 0, currency: 'USD' }),
    ]);
  });
  afterAll(() => target?.close());

  it("sums each run's own calls and each subtree's in one statement, in the order asked", async () => {
    // unpricedCalls: calls that spent tokens without a price; the unknown cost is left out of `cost`, never 0.
    const spend = (calls: number, cost: number, unpricedCalls: number) => ({
      calls,
      inputTokens: 200 * calls,
      outputTokens: 100 * calls,
      cost,
      currency: 'USD',
      unpricedCalls,
    });
    const none = { calls: 0, inputTokens: 0, outputTokens: 0, cost: 0, currency: null, unpricedCalls: 0 };
    expect(await calls.spendOf([{ runId: 'c1' }, { runId: 'r1' }, { runId: 'missing' }])).toEqual([spend(2, 0.4, 1), spend(2, 0.8, 0), none]);
    // '/r1/' is not a prefix of '/r1-other/': each subtree is one range of run_path.
    expect(await calls.spendOf([{ runPath: '/r1/' }, { runPath: '/r1/c1/' }, { runPath: '/none/' }])).toEqual([spend(4, 1.2, 1), spend(2, 0.4, 1), none]);
  });

  it('keeps a sum of calls that spent no known tokens unknown when none has a price, and 0 with its currency when priced (issue 39)', async () => {
    const noTokens = { inputTokens: 0, outputTokens: 0 };
    expect(await calls.spendOf([{ runId: 'r2' }, { runId: 'c2' }, { runPath: '/r2/' }])).toEqual([
      { calls: 1, ...noTokens, cost: null, currency: null, unpricedCalls: 1 },
      { calls: 1, ...noTokens, cost: 0, currency: 'USD', unpricedCalls: 0 },
      // The known part, with how many calls it leaves out: "at least 0 USD".
      { calls: 2, ...noTokens, cost: 0, currency: 'USD', unpricedCalls: 1 },
    ]);
  });
});
