import type { ReadModelDatabase } from '../../src/database/read-model-database';
import { ModelCallsReadModel, type ModelCallRow } from '../../src/model-calls/model-calls-read-model';
import { type ReadModelTarget, readModelTargets } from '../fixtures/read-model-targets';

jest.setTimeout(120_000);

let position = 0;
/** A model call of the run at `runPath` (`/<root>/…/<run>/`), as the projection writes it. */
function call(runPath: string, over: Partial<ModelCallRow> = {}): ModelCallRow {
  position += 1;
  const runId = runPath.split('/').filter(Boolean).at(-1) as string;
  return {
    callId: `call-${position}`,
    startedPosition: position,
    status: 'succeeded',
    sessionId: `sub-agent-${runId}`,
    cliAgentId: `sub-agent-${runId}`,
    agentInvocationId: null,
    agentName: 'worker',
    subagentId: null,
    runId,
    rootRunId: runPath.split('/')[1],
    runPath,
    lineagePath: '["worker"]',
    provider: 'openai',
    model: 'gpt-4.1',
    interactionType: null,
    initiator: null,
    requestBytes: 10,
    messageCount: 1,
    toolCount: 0,
    stream: true,
    httpStatus: 200,
    ttfbMs: 1,
    durationMs: 2,
    inputTokens: 200,
    outputTokens: 100,
    cachedInputTokens: null,
    reasoningTokens: null,
    responseId: null,
    finishReason: 'stop',
    cost: 0.4,
    currency: 'USD',
    error: null,
    instanceId: 'i1',
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:01.000Z',
    ...over,
  };
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
    await db.orm
      .insert(db.tables.modelCalls)
      .values([
        call('/r1/'),
        call('/r1/'),
        call('/r1/c1/'),
        call('/r1/c1/', { model: 'unlisted', cost: null, currency: null }),
        call('/r1/c1/', { status: 'in_flight', inputTokens: null, outputTokens: null, cost: null }),
        call('/r1/c1/', { status: 'refused', inputTokens: null, outputTokens: null, cost: null }),
        call('/r1-other/', { cost: 9 }),
      ]);
  });
  afterAll(() => target?.close());

  it("sums each run's own calls and each subtree's in one statement, in the order asked", async () => {
    const spend = (calls: number, cost: number, unpricedCalls: number) => ({
      calls,
      inputTokens: 200 * calls,
      outputTokens: 100 * calls,
      cost,
      unpricedCalls,
    });
    const none = { calls: 0, inputTokens: 0, outputTokens: 0, cost: 0, unpricedCalls: 0 };
    expect(await calls.spendOfEachRun(['c1', 'r1', 'missing'])).toEqual([spend(2, 0.4, 1), spend(2, 0.8, 0), none]);
    // '/r1/' is not a prefix of '/r1-other/': each subtree is one range of run_path.
    const trees = await calls.spendOfEachSubtree(['/r1/', '/r1/c1/', '/none/']);
    expect(trees.map((t) => ({ ...t, cost: Math.round(t.cost * 1e6) / 1e6 }))).toEqual([spend(4, 1.2, 1), spend(2, 0.4, 1), none]);
    expect(await calls.spendOfRuns('/r1/')).toEqual(trees[0]);
    expect(await calls.spendOfRun('r1')).toEqual(spend(2, 0.8, 0));
  });
});
