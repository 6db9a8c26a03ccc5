import { SessionRegistry } from '../../src/sessions/session-registry';
import { LiveSession } from '../../src/sessions/live-session';
import type { SessionConfig, SessionReplay } from '../../src/sessions/session-config';
import { ReplayedToolResults } from '../../src/tool-dispatch/replayed-tool-results';
import { type ReadModelTarget, readModelTargets } from '../fixtures/read-model-targets';

jest.setTimeout(120_000);

const ORIGINAL = 'sub-agent-original';

function replaySession(id: string, replay: Partial<SessionReplay>): LiveSession {
  const config: SessionConfig = {
    model: 'gpt-4.1',
    tools: [{ name: 'lookup', description: 'lookup', parameters: {}, handler: { type: 'webhook', url: 'http://127.0.0.1:9/lookup' } }],
    customAgents: [],
    permissionPolicy: { allowKinds: [], approveOwnTools: true },
    subAgents: [],
    replay: { originalSessionId: ORIGINAL, mode: 'replay', onDivergence: 'stop', allowSideEffects: false, ...replay },
  };
  return new LiveSession(id, config, 'active', 1);
}

/**
 * issue 26: a replay's webhook tool calls are answered from the original session's `routed_requests`:
 * the n-th call of a tool by an agent gets the original's n-th result of that tool by that agent, on both
 * databases; other arguments or a call the original never made get a failure saying so, or go live
 * where the replay may (a fork, onDivergence live).
 */
describe.each(readModelTargets())('ReplayedToolResults on %s', (_name, open) => {
  let side: ReadModelTarget;
  let results: ReplayedToolResults;
  const registry = new SessionRegistry();

  beforeAll(async () => {
    side = await open();
    const { routedRequests } = side.db.tables;
    const row = (position: number, agentName: string | null, args: unknown, result: string, outcome = 'success') => ({
      globalPosition: position,
      parentSessionId: ORIGINAL,
      childSessionId: agentName ? 'child-1' : null,
      agentName,
      kind: 'tool_call.routed',
      toolName: 'lookup',
      arguments: JSON.stringify(args),
      result,
      outcome,
      reason: outcome === 'success' ? null : 'upstream said no',
      latencyMs: 3,
      recordedAt: '2026-11-27T22:00:00.000Z',
    });
    await side.db.orm
      .insert(routedRequests)
      .values([
        row(10, null, { key: 'a' }, 'A=1'),
        row(11, 'researcher', { key: 'r' }, 'R=9'),
        row(12, null, { key: 'b' }, 'B failed', 'failure'),
        { ...row(13, null, { key: 'x' }, 'other kind'), kind: 'permission.decided' },
      ]);
    results = new ReplayedToolResults(side.db, registry);
  });

  afterAll(async () => {
    results.onModuleDestroy();
    await side.close();
  });

  it("answers each call with the original's result of the same tool, agent and position", async () => {
    const session = replaySession('replay-1', {});
    expect(await results.answer(session, undefined, 'lookup', { key: 'a' })).toEqual({
      kind: 'record',
      result: { textResultForLlm: 'A=1', resultType: 'success' },
    });
    expect(await results.answer(session, 'researcher', 'lookup', { key: 'r' })).toEqual({
      kind: 'record',
      result: { textResultForLlm: 'R=9', resultType: 'success' },
    });
    expect(await results.answer(session, undefined, 'lookup', { key: 'b' })).toEqual({
      kind: 'record',
      result: { textResultForLlm: 'B failed', resultType: 'failure', error: 'upstream said no' },
    });
    const third = await results.answer(session, undefined, 'lookup', { key: 'c' });
    expect(third).toMatchObject({ kind: 'missing', result: { resultType: 'failure' } });
    expect(third.kind === 'missing' && third.result.textResultForLlm).toContain('made no call 3 of tool lookup');
  });

  it('refuses other arguments in a replay that stops, and sends them to the webhook in a fork', async () => {
    const changed = await results.answer(replaySession('replay-2', {}), undefined, 'lookup', { key: 'changed' });
    expect(changed.kind === 'missing' && changed.result.textResultForLlm).toContain('other arguments');
    expect(await results.answer(replaySession('fork-1', { mode: 'fork', onDivergence: 'live' }), undefined, 'lookup', { key: 'changed' })).toEqual({
      kind: 'live',
    });
  });
});
