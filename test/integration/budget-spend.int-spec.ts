import { Logger } from '@nestjs/common';
import { openTestEventStore, type TestEventStore } from '../fixtures/event-store-fixture';
import { runStartedData } from '../fixtures/run-fixtures';
import { runStreamId } from '../../src/event-store';
import { CallRecording } from '../../src/model-calls/model-call-recording';
import { ModelCallsReadModel } from '../../src/model-calls/model-calls-read-model';
import { ModelCallsProjection } from '../../src/model-calls/projections/model-calls.projection';
import { ProjectionRegistry } from '../../src/projections';
import { RunsReadModel } from '../../src/run-lineage';
import type { SessionRegistry } from '../../src/sessions';
import { BudgetSpend } from '../../src/delegation/budget-spend';
import { RunsProjection } from '../../src/delegation/projections/runs.projection';

/** The real runs read model, counting its reads: a budget seen start must be answered without one. */
class CountedRuns extends RunsReadModel {
  reads = 0;
  override budgetedAmong(ids: readonly string[]) {
    this.reads += 1;
    return super.budgetedAmong(ids);
  }
  override subtreeSpend(path: string, now?: number) {
    this.reads += 1;
    return super.subtreeSpend(path, now);
  }
}

const SUMMARY = {
  model: 'gpt-x',
  provider: 'openai',
  method: 'POST',
  path: '/chat/completions',
  requestBytes: 2,
  messageCount: 1,
  toolCount: 0,
  stream: true,
};
const lineageOf = (runId: string, runPath: string) => ({
  sessionId: `sub-agent-${runId}`,
  cliAgentId: `sub-agent-${runId}`,
  agentName: 'worker',
  lineagePath: ['worker'],
  runId,
  rootRunId: 'root',
  runPath,
});

/**
 * A tree root (max_tokens 1000) → child, on a real SQLite store with the runs and model-calls
 * projections: the spend a budget gate decides on, from memory, and the one read a budget of before
 * the process takes.
 */
describe('BudgetSpend', () => {
  let fixture: TestEventStore;
  let runs: CountedRuns;
  let spend: BudgetSpend | undefined;
  const sessions = { get: () => undefined } as unknown as SessionRegistry;

  const startRun = (runId: string, path: string, budget?: { max_tokens: number }) =>
    fixture.store.append(runStreamId(runId), 'no_stream', [
      {
        type: 'run.started',
        data: {
          ...runStartedData({ runId, rootRunId: 'root', path, threadId: `sub-agent-${runId}`, depth: path.split('/').length - 2 }),
          ...(budget ? { budget } : {}),
        },
        metadata: { actor: 'api' },
      },
    ]);
  /** A call of `runId` recorded as the route records it: started, then finished with its usage. */
  const recordCall = async (callId: string, runId: string, runPath: string, tokens: number) => {
    const lineage = lineageOf(runId, runPath);
    const recording = new CallRecording(fixture.store, new Logger('spec'), callId, lineage.sessionId);
    await recording.record({ type: 'start', started: { callId, requestId: callId, ...lineage, ...SUMMARY, instanceId: 'i1' } });
    const usage = { inputTokens: tokens - 1, outputTokens: 1 };
    return {
      lineage,
      usage,
      finish: () =>
        recording.record({
          type: 'finish',
          finished: { callId, sessionId: lineage.sessionId, runId, status: 200, durationMs: 1, usage, answerBytes: 1, chunks: 1 },
        }),
    };
  };
  const watch = () => {
    spend = new BudgetSpend(fixture.store, runs, new ModelCallsReadModel(fixture.database.readModels), sessions);
    spend.onModuleInit();
    return spend;
  };
  const tokensOver = async (of: BudgetSpend) =>
    (await of.covering({ runId: 'child', runPath: '/root/child/', rootRunId: 'root' }, false)).map((c) => [c.runId, c.used.tokens]);

  beforeEach(() => {
    const registry = new ProjectionRegistry();
    registry.register(new RunsProjection());
    registry.register(new ModelCallsProjection());
    fixture = openTestEventStore(undefined, registry);
    runs = new CountedRuns(fixture.database.readModels);
  });

  afterEach(() => {
    spend?.onModuleDestroy();
    spend = undefined;
    fixture.close();
  });

  it("counts a call's spend as its answer ends, before its record, and never twice; a budget seen start is never read", async () => {
    const of = watch();
    await startRun('root', '/root/', { max_tokens: 1000 });
    await startRun('child', '/root/child/');
    expect(await tokensOver(of)).toEqual([['root', 0]]);
    const call = await recordCall('c1', 'child', '/root/child/', 300);
    // The answer's end is going to the CLI: the next call of the session sees the spend at once.
    of.callSpent(call.lineage, 'c1', call.usage, undefined);
    expect(await tokensOver(of)).toEqual([['root', 300]]);
    await call.finish();
    expect(await tokensOver(of)).toEqual([['root', 300]]);
    expect(runs.reads).toBe(0);
  });

  it("counts another instance's calls when their end commits", async () => {
    const of = watch();
    await startRun('root', '/root/', { max_tokens: 1000 });
    await startRun('child', '/root/child/');
    const elsewhere = await recordCall('c2', 'child', '/root/child/', 120);
    expect(await tokensOver(of)).toEqual([['root', 0]]);
    await elsewhere.finish();
    expect(await tokensOver(of)).toEqual([['root', 120]]);
  });

  it('reads a budget of before the process once, then keeps it by the events', async () => {
    await startRun('root', '/root/', { max_tokens: 1000 });
    await startRun('child', '/root/child/');
    await (await recordCall('c1', 'child', '/root/child/', 200)).finish();
    const of = watch();
    expect(await tokensOver(of)).toEqual([['root', 200]]);
    const reads = runs.reads;
    expect(reads).toBeGreaterThan(0);
    const call = await recordCall('c2', 'child', '/root/child/', 50);
    of.callSpent(call.lineage, 'c2', call.usage, undefined);
    await call.finish();
    expect(await tokensOver(of)).toEqual([['root', 250]]);
    expect(runs.reads).toBe(reads);
  });
});
