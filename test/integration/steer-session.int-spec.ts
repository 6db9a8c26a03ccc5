import { ErrorCodes, ResponseError } from 'vscode-jsonrpc/node';
import { appStoreTargets } from '../fixtures/app-store-targets';
import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { waitUntil } from '../fixtures/wait-until';

/**
 * spec: issue 26, Steer, against a fake CLI for what the real one cannot be made to do on demand: the exact
 * requests steering sends, a sub-agent that stops accepting messages between the check and the send, a CLI
 * that fails the request, and a protocol-2 CLI. The real CLI's behaviour is test/e2e/steer-real-cli.e2e-spec.ts.
 */
describe('steering through the CLI (fake CLI)', () => {
  // Both stores: the sub-agent is looked up in subagent_instances (by agentId or task call id).
  describe.each(appStoreTargets())('protocol 3 (%s)', (_name, store) => {
    let h: SessionHarness;
    beforeAll(async () => (h = await startSessionHarness({ store })));
    afterAll(() => h.close());

    const events = async (id: string) => (await h.http('GET', `/api/streams/session-${id}/events?limit=1000`)).body.events as Json[];
    const steerEvents = async (id: string) => (await events(id)).filter((e) => String(e.type).startsWith('session.steer'));

    async function runningSessionWithSubagent(): Promise<string> {
      const id = await h.createTeamSession();
      expect((await h.http('POST', `/api/sessions/${id}/messages`, { prompt: 'work' })).status).toBe(202);
      await h.fake.emitEvent(id, { type: 'subagent.started', agentId: 'task-9', data: { toolCallId: 'call_9', agentName: 'keeper' } });
      await waitUntil(async () => (await h.http('GET', `/api/sessions/${id}`)).body.subAgentLaunches.length === 1, 'the launch to be stored');
      return id;
    }

    afterEach(() => {
      h.fake.handle('session.send', undefined);
      h.fake.handle('session.tasks.sendMessage', undefined);
    });

    it('sends the main agent session.send in immediate mode, and a sub-agent (by agentId or by its task call) session.tasks.sendMessage by its id', async () => {
      const id = await runningSessionWithSubagent();
      h.fake.handle('session.tasks.sendMessage', () => ({ sent: true }));
      h.fake.received.length = 0;
      expect((await h.http('POST', `/api/sessions/${id}/steer`, { message: 'to main' })).status).toBe(202);
      expect(await h.http('POST', `/api/sessions/${id}/steer`, { message: 'to keeper', subagentId: 'call_9' })).toMatchObject({
        status: 202,
        body: { target: 'subagent', subagentId: 'task-9', agentName: 'keeper' },
      });
      expect(h.fake.received.map((r) => [r.method, r.params])).toEqual([
        ['session.send', { sessionId: id, prompt: 'to main', mode: 'immediate' }],
        ['session.tasks.sendMessage', { sessionId: id, id: 'task-9', message: 'to keeper' }],
      ]);
      expect((await steerEvents(id)).map((e) => [e.type, e.data.target, e.data.subagentId])).toEqual([
        ['session.steered', 'main', undefined],
        ['session.steered', 'subagent', 'task-9'],
      ]);
    });

    it('a sub-agent the CLI no longer takes messages for is a 409 with its reason, recorded as a failed steer', async () => {
      const id = await runningSessionWithSubagent();
      h.fake.handle('session.tasks.sendMessage', () => ({ sent: false, error: 'Agent not found or not accepting messages' }));
      const refused = await h.http('POST', `/api/sessions/${id}/steer`, { message: 'late', subagentId: 'task-9' });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(
        `Sub-agent task-9 of session ${id} did not take the message (Agent not found or not accepting messages); only a running sub-agent can be steered`,
      );
      expect((await steerEvents(id)).map((e) => e.type)).toEqual(['session.steered', 'session.steer_failed']);
    });

    it('a CLI that fails the request is a 502 saying so, recorded as a failed steer', async () => {
      const id = await runningSessionWithSubagent();
      h.fake.handle('session.send', () => {
        throw new ResponseError(ErrorCodes.InternalError, 'queue is closed');
      });
      const failed = await h.http('POST', `/api/sessions/${id}/steer`, { message: 'x' });
      expect(failed).toMatchObject({ status: 502, body: { code: 'cli_error', message: 'The Copilot CLI did not take the steer: queue is closed' } });
      expect((await steerEvents(id)).at(-1)?.data).toEqual({ error: 'The Copilot CLI did not take the steer: queue is closed', target: 'main' });
    });

    it('refuses an ended sub-agent, an unknown one and bad bodies before the CLI is asked', async () => {
      const id = await runningSessionWithSubagent();
      await h.fake.emitEvent(id, { type: 'subagent.completed', agentId: 'task-9', data: { toolCallId: 'call_9', agentName: 'keeper' } });
      await waitUntil(async () => (await h.http('GET', `/api/sessions/${id}`)).body.subAgentLaunches[0].status === 'completed', 'the launch to end');
      h.fake.received.length = 0;
      const ended = await h.http('POST', `/api/sessions/${id}/steer`, { message: 'x', subagentId: 'task-9' });
      expect(ended).toMatchObject({
        status: 409,
        body: { message: `Sub-agent task-9 of session ${id} is completed; only a running sub-agent can be steered` },
      });
      expect((await h.http('POST', `/api/sessions/${id}/steer`, { message: 'x', subagentId: 'task-404' })).status).toBe(404);
      expect((await h.http('POST', `/api/sessions/${id}/steer`, { message: '   ' })).status).toBe(400);
      expect((await h.http('POST', `/api/sessions/${id}/steer`, { message: 'x', extra: 1 })).status).toBe(400);
      expect((await h.http('POST', '/api/sessions/no-such-session/steer', { message: 'x' })).status).toBe(404);
      expect((await h.http('POST', '/api/runs/no-such-run/steer', { message: 'x' })).status).toBe(404);
      expect(h.fake.received.filter((r) => r.method.startsWith('session.'))).toEqual([]);
      expect(await steerEvents(id)).toEqual([]);
    });
  });

  describe('protocol 2', () => {
    let h: SessionHarness;
    beforeAll(async () => (h = await startSessionHarness({ protocolVersion: 2 })));
    afterAll(() => h.close());

    it('says steering needs protocol 3, asks the CLI nothing and records nothing', async () => {
      const id = await h.createTeamSession();
      expect((await h.http('POST', `/api/sessions/${id}/messages`, { prompt: 'work' })).status).toBe(202);
      h.fake.received.length = 0;
      const refused = await h.http('POST', `/api/sessions/${id}/steer`, { message: 'x' });
      expect(refused).toMatchObject({ status: 422, body: { code: 'unsupported_by_cli' } });
      expect(refused.body.message).toContain('steering a running agent needs protocol 3');
      expect(h.fake.received.filter((r) => r.method.startsWith('session.'))).toEqual([]);
      const recorded = (await h.http('GET', `/api/streams/session-${id}/events?limit=1000`)).body.events as Json[];
      expect(recorded.filter((e) => String(e.type).startsWith('session.steer'))).toEqual([]);
    });
  });
});
