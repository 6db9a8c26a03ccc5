import type { NewEvent } from '../../src/event-store/event-store.types';
import { modelCallStreamId } from '../../src/event-store/stream-ids';
import { ModelCallEvents, type ModelCallLineage, type ModelRequestSummary } from '../../src/model-calls/model-call.events';
import { decodeModelCallCursor, encodeModelCallCursor } from '../../src/model-calls/model-call-view';
import { ModelCallsReadModel, type RunCallsKey } from '../../src/model-calls/model-calls-read-model';
import { ModelCallsProjection } from '../../src/model-calls/projections/model-calls.projection';
import { GetModelCallBodiesHandler } from '../../src/model-calls/queries/get-model-call-bodies/get-model-call-bodies.handler';
import { GetModelCallBodies } from '../../src/model-calls/queries/get-model-call-bodies/get-model-call-bodies.query';
import { ListModelCallsOfRunsHandler } from '../../src/model-calls/queries/list-model-calls-of-runs/list-model-calls-of-runs.handler';
import { ListModelCallsOfRuns } from '../../src/model-calls/queries/list-model-calls-of-runs/list-model-calls-of-runs.query';
import { type EventStoreTarget, eventStoreTargets } from '../fixtures/event-store-targets';

jest.setTimeout(120_000);

const SUMMARY: ModelRequestSummary = {
  model: 'gpt-4.1',
  provider: 'openai',
  method: 'POST',
  path: '/chat/completions',
  requestBytes: 512,
  messageCount: 2,
  toolCount: 1,
  stream: true,
};

/** Runs of one tree and a second root whose path shares the first's prefix: /R/ → /R/C/ → /R/C/G/, and /R2/. */
const RUNS = {
  R: { runId: 'R', rootRunId: 'R', runPath: '/R/', agentName: 'lead', lineagePath: ['lead'] },
  C: { runId: 'C', rootRunId: 'R', runPath: '/R/C/', agentName: 'researcher', lineagePath: ['lead', 'researcher'] },
  G: { runId: 'G', rootRunId: 'R', runPath: '/R/C/G/', agentName: 'checker', lineagePath: ['lead', 'researcher', 'checker'] },
  R2: { runId: 'R2', rootRunId: 'R2', runPath: '/R2/', agentName: 'other', lineagePath: ['other'] },
};

function lineage(sessionId: string, run?: (typeof RUNS)[keyof typeof RUNS]): ModelCallLineage {
  return run
    ? { sessionId: `sub-agent-${run.runId}`, cliAgentId: `sub-agent-${run.runId}`, ...run }
    : { sessionId, cliAgentId: sessionId, agentName: 'main', lineagePath: ['main'] };
}

const started = (callId: string, line: ModelCallLineage, request?: string): NewEvent => ({
  type: ModelCallEvents.started,
  data: { callId, requestId: `req-${callId}`, instanceId: 'i1', ...line, ...SUMMARY, ...(request ? { request, requestTruncated: true } : {}) },
});

const finished = (callId: string, line: ModelCallLineage, tokens: [number, number], cost?: number, answer?: string): NewEvent => ({
  type: ModelCallEvents.finished,
  data: {
    callId,
    sessionId: line.sessionId,
    runId: line.runId,
    status: 200,
    ttfbMs: 40,
    durationMs: 120,
    usage: { inputTokens: tokens[0], outputTokens: tokens[1] },
    responseId: `chatcmpl-${callId}`,
    finishReason: 'stop',
    ...(cost === undefined ? {} : { cost: { amount: cost, currency: 'USD' } }),
    answerBytes: 64,
    chunks: 3,
    ...(answer ? { answer } : {}),
  },
});

/**
 * spec: issue 25, Read it. The `model_calls` read model as its inline projection leaves it, read
 * through ModelCallsReadModel on both databases: a session's pages, a run's own calls against its
 * subtree's (one range of run_path, a sibling root sharing its prefix left out), many runs in one
 * batch, spend sums where an unknown cost stays unknown, and the bodies read off the calls' streams.
 */
describe.each(eventStoreTargets())('model calls read model on %s', (_name, openTarget) => {
  let target: EventStoreTarget;
  let calls: ModelCallsReadModel;

  beforeAll(async () => {
    target = await openTarget({ summaries: 'none', projections: () => [new ModelCallsProjection()] });
    calls = new ModelCallsReadModel(target.db);
    const s1 = lineage('s1');
    const append = (callId: string, events: NewEvent[]) => target.store.append(modelCallStreamId(callId), 'no_stream', events);
    // The session's calls, one per stream: priced, failed without usage, refused, still in flight.
    await append('s1-a', [started('s1-a', s1, '{"messages":["hello"]}'), finished('s1-a', s1, [100, 20], 0.00036, 'data: hi')]);
    await append('s1-b', [
      started('s1-b', s1),
      // A 429 without usage of a priced model spent nothing: the route records it at 0 (costOf).
      {
        type: ModelCallEvents.failed,
        data: { callId: 's1-b', sessionId: 's1', durationMs: 5, outcome: 'failed', error: 'HTTP 429', status: 429, cost: { amount: 0, currency: 'USD' } },
      },
    ]);
    await append('s1-c', [
      {
        type: ModelCallEvents.refused,
        data: {
          callId: 's1-c',
          requestId: 'req-s1-c',
          instanceId: 'i1',
          ...s1,
          ...SUMMARY,
          limit: 'max_tokens',
          used: 10,
          max: 5,
          message: 'Budget spent',
        },
      },
    ]);
    await append('s1-d', [started('s1-d', s1)]);
    await append('other', [started('other', lineage('s2')), finished('other', lineage('s2'), [7, 7], 1)]);
    // The run tree: the root's call priced, the child's unpriced (no price for its model), the grandchild's interrupted.
    await append('r-1', [started('r-1', lineage('', RUNS.R)), finished('r-1', lineage('', RUNS.R), [50, 10], 0.0002)]);
    await append('c-1', [started('c-1', lineage('', RUNS.C)), finished('c-1', lineage('', RUNS.C), [30, 5])]);
    await append('g-1', [
      started('g-1', lineage('', RUNS.G)),
      { type: ModelCallEvents.interrupted, data: { callId: 'g-1', sessionId: 'sub-agent-G', runId: 'G', reason: 'the instance died' } },
    ]);
    await append('r-2', [started('r-2', lineage('', RUNS.R)), finished('r-2', lineage('', RUNS.R), [60, 12], 0.0003)]);
    await append('r2-1', [started('r2-1', lineage('', RUNS.R2)), finished('r2-1', lineage('', RUNS.R2), [1000, 1000], 5)]);
  });

  afterAll(() => target?.close());

  it("pages a session's calls oldest first with each call's status as the projection left it", async () => {
    const all = await calls.ofSession('s1', undefined, 10);
    expect(all.map((c) => [c.callId, c.status])).toEqual([
      ['s1-a', 'succeeded'],
      ['s1-b', 'failed'],
      ['s1-c', 'refused'],
      ['s1-d', 'in_flight'],
    ]);
    expect(all[0]).toMatchObject({ inputTokens: 100, outputTokens: 20, cost: 0.00036, currency: 'USD', responseId: 'chatcmpl-s1-a', httpStatus: 200 });
    expect(all[2]).toMatchObject({ error: 'Budget spent', durationMs: 0 });

    const first = await calls.ofSession('s1', undefined, 2);
    const cursor = decodeModelCallCursor(encodeModelCallCursor(first[1].startedPosition));
    const second = await calls.ofSession('s1', cursor, 2);
    expect([...first, ...second].map((c) => c.callId)).toEqual(all.map((c) => c.callId));
    expect(await calls.ofSession('s1', all[3].startedPosition, 2)).toEqual([]);
  });

  it("reads a run's own calls, or its subtree's as one range of run_path that leaves a sibling root sharing its prefix out", async () => {
    const ids = async (key: RunCallsKey) => (await calls.ofRuns([key], 10))[0].map((c) => c.callId);
    expect(await ids({ runId: 'R' })).toEqual(['r-1', 'r-2']);
    expect(await ids({ runId: 'R', subtreePath: '/R/' })).toEqual(['r-1', 'c-1', 'g-1', 'r-2']);
    expect(await ids({ runId: 'C', subtreePath: '/R/C/' })).toEqual(['c-1', 'g-1']);
    const [[g]] = await calls.ofRuns([{ runId: 'G' }], 10);
    expect(g).toMatchObject({ status: 'interrupted', error: 'the instance died', rootRunId: 'R', lineagePath: JSON.stringify(RUNS.G.lineagePath) });
  });

  it('reads pages of many runs in one batch, each after its own cursor, own and subtree mixed', async () => {
    const [[r1]] = await calls.ofRuns([{ runId: 'R' }], 1);
    const handler = new ListModelCallsOfRunsHandler(calls);
    const pages = await handler.execute(
      new ListModelCallsOfRuns(
        [
          { runId: 'R', subtreePath: '/R/' },
          { runId: 'R' },
          { runId: 'R', subtreePath: '/R/', after: r1.startedPosition },
          { runId: 'C', subtreePath: '/R/C/' },
          { runId: 'R2' },
          { runId: 'nobody' },
        ],
        2,
      ),
    );
    expect(pages.map((p) => p.calls.map((c) => c.callId))).toEqual([['r-1', 'c-1'], ['r-1', 'r-2'], ['c-1', 'g-1'], ['c-1', 'g-1'], ['r2-1'], []]);
    expect(pages.map((p) => p.nextCursor !== null)).toEqual([true, false, true, false, false, false]);
    expect(pages[3].calls[1].lineagePath).toEqual(['lead', 'researcher', 'checker']);
  });

  it('sums spend over ended calls, keeping an unknown cost unknown and counting the calls left out of it', async () => {
    const [session, root, rootSubtree, child, childSubtree, nobody] = await calls.spendOf([
      { sessionId: 's1' },
      { runId: 'R' },
      { runPath: '/R/' },
      { runId: 'C' },
      { runPath: '/R/C/' },
      { sessionId: 'nobody' },
    ]);
    // s1: the priced call and the failed one (no answer, priced: 0); refused and in-flight ones spent nothing known.
    expect(session).toEqual({ calls: 2, inputTokens: 100, outputTokens: 20, cost: 0.00036, currency: 'USD', unpricedCalls: 0 });
    expect(root).toEqual({ calls: 2, inputTokens: 110, outputTokens: 22, cost: 0.0005, currency: 'USD', unpricedCalls: 0 });
    // The subtree: the child's unpriced call is counted in tokens and named as left out of the cost.
    expect(rootSubtree).toEqual({ calls: 3, inputTokens: 140, outputTokens: 27, cost: 0.0005, currency: 'USD', unpricedCalls: 1 });
    // Only unpriced calls: the cost is unknown, never 0.
    expect(child).toEqual({ calls: 1, inputTokens: 30, outputTokens: 5, cost: null, currency: null, unpricedCalls: 1 });
    expect(childSubtree).toEqual(child);
    expect(nobody).toEqual({ calls: 0, inputTokens: 0, outputTokens: 0, cost: 0, currency: null, unpricedCalls: 0 });
  });

  it("reads the kept request and answer off the calls' streams, in the order asked", async () => {
    const bodies = await new GetModelCallBodiesHandler(target.store).execute(new GetModelCallBodies(['s1-b', 's1-a', 'missing']));
    expect(bodies).toEqual([
      { request: null, answer: null, requestTruncated: false, answerTruncated: false },
      { request: '{"messages":["hello"]}', answer: 'data: hi', requestTruncated: true, answerTruncated: false },
      { request: null, answer: null, requestTruncated: false, answerTruncated: false },
    ]);
  });
});
