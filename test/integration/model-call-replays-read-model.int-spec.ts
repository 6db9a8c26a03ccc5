import type { NewEvent } from '../../src/event-store/event-store.types';
import { modelCallStreamId } from '../../src/event-store/stream-ids';
import { ModelCallEvents, type ModelCallLineage, type ModelCallReplay, type ModelRequestSummary } from '../../src/model-calls/model-call.events';
import { modelCallViewOf } from '../../src/model-calls/model-call-view';
import { ModelCallsReadModel } from '../../src/model-calls/model-calls-read-model';
import { ModelCallsProjection } from '../../src/model-calls/projections/model-calls.projection';
import { type EventStoreTarget, eventStoreTargets } from '../fixtures/event-store-targets';

jest.setTimeout(120_000);

const SUMMARY: ModelRequestSummary = {
  model: 'gpt-4.1',
  provider: 'openai',
  method: 'POST',
  path: '/chat/completions',
  requestBytes: 9,
  messageCount: 2,
  toolCount: 1,
  stream: true,
};

const lineageOf = (runId: string, runPath: string, agentName: string): ModelCallLineage => ({
  sessionId: `sub-agent-${runId}`,
  cliAgentId: `sub-agent-${runId}`,
  agentName,
  runId,
  rootRunId: runPath.split('/')[1],
  runPath,
  lineagePath: [agentName],
});

interface CallSpec {
  line: ModelCallLineage;
  request?: { text: string; truncated?: boolean };
  answer?: { text: string; truncated?: boolean };
  replay?: ModelCallReplay;
  refused?: string;
  failed?: boolean;
}

function eventsOf(callId: string, spec: CallSpec): NewEvent[] {
  const base = { callId, requestId: `req-${callId}`, instanceId: 'i1', ...spec.line, ...SUMMARY, ...(spec.replay ? { replay: spec.replay } : {}) };
  if (spec.refused) return [{ type: ModelCallEvents.refused, data: { ...base, limit: 'replay_divergence', used: 0, max: 0, message: spec.refused } }];
  const request = spec.request ? { request: spec.request.text, ...(spec.request.truncated ? { requestTruncated: true } : {}) } : {};
  const ended = { callId, sessionId: spec.line.sessionId, runId: spec.line.runId, durationMs: 5, answerBytes: 3, chunks: 1 };
  const answer = spec.answer ? { answer: spec.answer.text, ...(spec.answer.truncated ? { answerTruncated: true } : {}) } : {};
  return [
    { type: ModelCallEvents.started, data: { ...base, ...request } },
    spec.failed
      ? { type: ModelCallEvents.failed, data: { ...ended, outcome: 'failed', error: 'HTTP 429', status: 429 } }
      : { type: ModelCallEvents.finished, data: { ...ended, status: 200, usage: { inputTokens: 1 }, ...answer } },
  ];
}

const WHOLE = { request: { text: 'REQ' }, answer: { text: 'ANS' } };

/**
 * spec: issue 26, Replay and Fork. What the run side reads of the ledger, on both databases: the calls a
 * replay is answered from (answered ones only, oldest first), the first divergence of a replay tree with
 * both versions, and why a run cannot be replayed (no calls, bodies not kept, bodies cut).
 */
describe.each(eventStoreTargets())('model call replays in the read model on %s', (_name, openTarget) => {
  let target: EventStoreTarget;
  let calls: ModelCallsReadModel;

  beforeAll(async () => {
    target = await openTarget({ summaries: 'none', projections: () => [new ModelCallsProjection()] });
    calls = new ModelCallsReadModel(target.db);
    const add = (callId: string, spec: CallSpec) => target.store.append(modelCallStreamId(callId), 'no_stream', eventsOf(callId, spec));
    // The original run O (/O/, its child /O/K/): two lead calls, one retried after a 429, and a child's call.
    const lead = lineageOf('O', '/O/', 'lead');
    await add('o-1', { line: lead, ...WHOLE });
    await add('o-2-429', { line: lead, ...WHOLE, failed: true });
    await add('o-2', { line: lead, ...WHOLE });
    await add('o-k', { line: lineageOf('K', '/O/K/', 'checker'), ...WHOLE });
    // Runs recorded with content=metadata (/M/), with a cut answer (/T/), and one with no calls (/E/).
    await add('m-1', { line: lineageOf('M', '/M/', 'lead') });
    await add('t-1', { line: lineageOf('T', '/T/', 'lead'), request: { text: 'REQ' }, answer: { text: 'AN', truncated: true } });
    // A replay tree /P/ (its child /P/Q/): played back, then its child stopped at a divergence; a later live one.
    const replayLead = lineageOf('P', '/P/', 'lead');
    await add('p-1', { line: replayLead, ...WHOLE, replay: { source: 'record', originalCallId: 'o-1', position: 1 } });
    await add('p-q-1', {
      line: lineageOf('Q', '/P/Q/', 'checker'),
      refused: 'the replay stopped',
      replay: { source: 'record', originalCallId: 'o-k', position: 1, divergence: { part: 'system', original: 'CHECK.', now: 'CHECK, EDITED.' } },
    });
    await add('p-2', {
      line: replayLead,
      ...WHOLE,
      replay: { source: 'live', originalCallId: 'o-2', position: 2, divergence: { part: 'messages', at: '3' }, forkPoint: true },
    });
  });

  afterAll(async () => {
    await target?.close();
  });

  it("lists the calls a replay answers from: a session's answered calls, oldest first, the refused attempt left out", async () => {
    expect((await calls.recordedCallsOf('sub-agent-O')).map((c) => [c.callId, c.agentName])).toEqual([
      ['o-1', 'lead'],
      ['o-2', 'lead'],
    ]);
    expect(await calls.replayedCallsOf('sub-agent-P')).toEqual([
      { agentName: 'lead', position: 1, source: 'record' },
      { agentName: 'lead', position: 2, source: 'live' },
    ]);
    expect(await calls.replayedCallsOf('sub-agent-O')).toEqual([]);
  });

  it('finds the first divergence of a replay tree, in a child run, with both versions and whether it stopped there', async () => {
    expect(await calls.firstDivergenceOf('/P/')).toMatchObject({
      callId: 'p-q-1',
      runId: 'Q',
      agentName: 'checker',
      position: 1,
      originalCallId: 'o-k',
      divergence: { part: 'system', original: 'CHECK.', now: 'CHECK, EDITED.' },
      stopped: true,
    });
    expect(await calls.firstDivergenceOf('/P/Q/')).toMatchObject({ callId: 'p-q-1' });
    expect(await calls.firstDivergenceOf('/O/')).toBeUndefined();
  });

  it('shows a replayed call’s source, original, position, divergence and fork point in its view', async () => {
    const view = modelCallViewOf((await calls.find('p-2'))!);
    expect(view.replay).toEqual({ source: 'live', originalCallId: 'o-2', position: 2, divergence: { part: 'messages', at: '3' }, forkPoint: true });
    expect(modelCallViewOf((await calls.find('o-1'))!).replay).toBeNull();
  });

  it('leaves played-back calls out of spend: they show the recorded tokens, but nothing was spent on them', async () => {
    const [tree, played] = await calls.spendOf([{ runPath: '/P/' }, { runId: 'P' }]);
    // p-1 played back and the refused p-q-1 are left out; the live p-2 counts.
    expect(tree).toMatchObject({ calls: 1, inputTokens: 1 });
    expect(played).toMatchObject({ calls: 1, inputTokens: 1 });
    expect((await calls.find('p-1'))?.inputTokens).toBe(1);
  });

  it('says why a run cannot be replayed: no calls, bodies not kept, answers cut; nothing for a run recorded whole', async () => {
    expect(await calls.replayableProblem('/O/')).toBeUndefined();
    expect(await calls.replayableProblem('/E/')).toMatch(/no recorded model call.*SWITCHBOARD_MODEL_ROUTE/);
    expect(await calls.replayableProblem('/M/')).toMatch(
      /1 of the run's 1 model calls were recorded without their request and answer.*SWITCHBOARD_MODEL_CONTENT=full/,
    );
    expect(await calls.replayableProblem('/T/')).toMatch(/1 of the run's 1 model calls were kept cut at SWITCHBOARD_MODEL_CONTENT_MAX_BYTES/);
  });
});
