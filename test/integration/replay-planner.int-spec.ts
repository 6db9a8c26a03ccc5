import type { NewEvent } from '../../src/event-store/event-store.types';
import { modelCallStreamId } from '../../src/event-store/stream-ids';
import { ModelCallEvents, type ModelCallLineage, type ModelCallReplay, type ModelRequestSummary } from '../../src/model-calls/model-call.events';
import { ModelCallsReadModel } from '../../src/model-calls/model-calls-read-model';
import { ModelCallsProjection } from '../../src/model-calls/projections/model-calls.projection';
import { type ReplayPlan, ReplayPlanner } from '../../src/model-calls/replay/replay-planner';
import { LiveSession } from '../../src/sessions/live-session';
import { DEFAULT_PERMISSION_POLICY, type SessionReplay } from '../../src/sessions/session-config';
import { SessionRegistry } from '../../src/sessions/session-registry';
import { type EventStoreTarget, eventStoreTargets } from '../fixtures/event-store-targets';

jest.setTimeout(120_000);

const SUMMARY: ModelRequestSummary = {
  model: 'gpt-4.1',
  provider: 'openai',
  method: 'POST',
  path: '/chat/completions',
  requestBytes: 9,
  messageCount: 2,
  toolCount: 0,
  stream: true,
};
const line = (sessionId: string, agentName: string): ModelCallLineage => ({ sessionId, cliAgentId: sessionId, agentName, lineagePath: [agentName] });
/** A request as an agent asks it: its prompt and the conversation so far. */
const request = (system: string, ...said: string[]) =>
  JSON.stringify({
    model: 'gpt-4.1',
    messages: [{ role: 'system', content: system }, ...said.map((content) => ({ role: 'user', content }))],
    stream: true,
  });
const answerOf = (text: string) => `data: {"choices":[{"delta":{"content":"${text}"}}]}\n\ndata: [DONE]\n\n`;

/**
 * spec: issue 26, Replay and Fork. The ReplayPlanner over the real ledger (both stores): the n-th call of an
 * agent answered from the original's n-th answered call of that agent, a changed request or a call the
 * original never made a divergence, a fork live from its fork point with its message, and a planner that
 * starts again (a restart) going on from where the session had got to.
 */
describe.each(eventStoreTargets())('replay planner on %s', (_name, openTarget) => {
  let target: EventStoreTarget;
  let calls: ModelCallsReadModel;
  const registry = new SessionRegistry();
  const starts = new Map<string, string>();
  let planner: ReplayPlanner;

  async function record(callId: string, lineage: ModelCallLineage, body: string, answer: string, replay?: ModelCallReplay): Promise<void> {
    const events: NewEvent[] = [
      {
        type: ModelCallEvents.started,
        data: { callId, requestId: `q-${callId}`, instanceId: 'i', ...lineage, ...SUMMARY, request: body, ...(replay ? { replay } : {}) },
      },
      {
        type: ModelCallEvents.finished,
        data: {
          callId,
          sessionId: lineage.sessionId,
          status: 200,
          durationMs: 3,
          usage: { inputTokens: 7 },
          answerBytes: 9,
          chunks: 2,
          answer,
          responseId: `r-${callId}`,
        },
      },
    ];
    await target.store.append(modelCallStreamId(callId), 'no_stream', events);
    starts.set(callId, (await calls.find(callId))!.startedAt);
  }

  function replaying(sessionId: string, replay: Partial<SessionReplay>): void {
    const config = { model: 'gpt-4.1', tools: [], customAgents: [], permissionPolicy: DEFAULT_PERMISSION_POLICY, subAgents: [] };
    registry.add(
      new LiveSession(
        sessionId,
        { ...config, replay: { originalSessionId: 'orig', mode: 'replay', onDivergence: 'stop', allowSideEffects: false, ...replay } },
        'idle',
        0,
      ),
    );
  }

  const kindOf = (plan: ReplayPlan | undefined) =>
    plan ? [plan.kind, plan.replay.position, plan.replay.originalCallId, plan.replay.divergence?.part] : undefined;

  beforeAll(async () => {
    target = await openTarget({ summaries: 'none', projections: () => [new ModelCallsProjection()] });
    calls = new ModelCallsReadModel(target.db);
    planner = new ReplayPlanner(registry, calls, target.store);
    // The original: lead, checker, lead.
    await record('o-1', line('orig', 'lead'), request('LEAD', 'go'), answerOf('ASK'));
    await record('o-2', line('orig', 'checker'), request('CHECK', 'check'), answerOf('OK'));
    await record('o-3', line('orig', 'lead'), request('LEAD', 'go', 'OK'), answerOf('DONE'));
  });

  afterAll(async () => {
    await target?.close();
  });

  it('leaves a session without replay alone', async () => {
    registry.add(
      new LiveSession('plain', { model: 'm', tools: [], customAgents: [], permissionPolicy: DEFAULT_PERMISSION_POLICY, subAgents: [] }, 'idle', 0),
    );
    expect(await planner.plan(line('plain', 'lead'), request('LEAD', 'go'))).toBeUndefined();
  });

  it('matches each agent’s calls by position, plays back the recorded answer, and names a call the original never made', async () => {
    replaying('r1', {});
    const first = await planner.plan(line('r1', 'lead'), request('LEAD', 'go'));
    expect(kindOf(first)).toEqual(['record', 1, 'o-1', undefined]);
    expect(first?.kind === 'record' && first.original).toMatchObject({
      answer: answerOf('ASK'),
      usage: { inputTokens: 7 },
      responseId: 'r-o-1',
      stream: true,
    });
    expect(kindOf(await planner.plan(line('r1', 'checker'), request('CHECK', 'check')))).toEqual(['record', 1, 'o-2', undefined]);
    expect(kindOf(await planner.plan(line('r1', 'lead'), request('LEAD', 'go', 'OK')))).toEqual(['record', 2, 'o-3', undefined]);
    const extra = await planner.plan(line('r1', 'lead'), request('LEAD', 'go', 'OK', 'more'));
    expect(kindOf(extra)).toEqual(['refuse', 3, undefined, 'missing']);
    expect(extra?.kind === 'refuse' && extra.message).toContain('call 3 of agent lead');
  });

  it('stops at a changed request, or goes live from it for that agent only', async () => {
    replaying('r2', {});
    expect(kindOf(await planner.plan(line('r2', 'lead'), request('LEAD EDITED', 'go')))).toEqual(['refuse', 1, 'o-1', 'system']);
    replaying('r3', { onDivergence: 'live' });
    const live = await planner.plan(line('r3', 'lead'), request('LEAD', 'went'));
    expect(kindOf(live)).toEqual(['live', 1, 'o-1', 'messages']);
    expect(live?.kind === 'live' && live.body).toBe(request('LEAD', 'went'));
    expect(kindOf(await planner.plan(line('r3', 'checker'), request('CHECK', 'check')))).toEqual(['record', 1, 'o-2', undefined]);
    // The lead went live: its next call goes to the model without a comparison.
    expect(kindOf(await planner.plan(line('r3', 'lead'), request('LEAD', 'anything')))).toEqual(['live', 2, undefined, undefined]);
  });

  it('forks: calls before the fork point from the record, the fork point live with the message appended and the agent’s overrides', async () => {
    replaying('f1', {
      mode: 'fork',
      liveFrom: { callId: 'o-3', startedAt: starts.get('o-3')! },
      message: 'FORK_MESSAGE',
      agentOverrides: { lead: { model: 'gpt-5', prompt: 'NEW LEAD' } },
    });
    expect(kindOf(await planner.plan(line('f1', 'lead'), request('LEAD', 'go')))).toEqual(['record', 1, 'o-1', undefined]);
    expect(kindOf(await planner.plan(line('f1', 'checker'), request('CHECK', 'check')))).toEqual(['record', 1, 'o-2', undefined]);
    const forkPoint = await planner.plan(line('f1', 'lead'), request('LEAD', 'go', 'OK'));
    expect(forkPoint?.replay).toEqual({ source: 'live', position: 2, originalCallId: 'o-3', forkPoint: true });
    expect(forkPoint?.kind === 'live' && forkPoint.model).toBe('gpt-5');
    const sent = JSON.parse(forkPoint?.kind === 'live' ? forkPoint.body : '{}') as { model: string; messages: { role: string; content: string }[] };
    expect(sent.model).toBe('gpt-5');
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'NEW LEAD' });
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'FORK_MESSAGE' });
    // A new agent of the branch, after the fork went live: its own work, live, no divergence.
    expect(kindOf(await planner.plan(line('f1', 'reviewer'), request('REVIEW')))).toEqual(['live', 1, undefined, undefined]);
  });

  it('goes on after a restart from where the session had got to, read from its recorded calls', async () => {
    replaying('r4', {});
    await record('r4-1', line('r4', 'lead'), request('LEAD', 'go'), answerOf('ASK'), { source: 'record', originalCallId: 'o-1', position: 1 });
    const restarted = new ReplayPlanner(registry, calls, target.store);
    expect(kindOf(await restarted.plan(line('r4', 'lead'), request('LEAD', 'go', 'OK')))).toEqual(['record', 2, 'o-3', undefined]);
  });
});
