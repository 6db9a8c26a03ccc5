import { type Json, type JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

/**
 * spec: sub-agent-delegation, recovery. A background run is cut off by a restart of Switchboard: it is
 * interrupted (not re-run), its owner is reminded at its next turn, and the main agent resumes it with
 * agent_run {run_id}, which completes it on the same CLI session.
 */
describe('an interrupted run, resumed by the main agent after a restart', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);
  let runId = '';
  let releaseWorker = false;

  beforeAll(async () => {
    await model.start();
    model.setScript([
      {
        name: 'lead starts the slow run',
        systemIncludes: 'LEAD_P',
        lastMessageIncludes: 'Start the job',
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'slowpoke', prompt: 'Compute JOB_X.', background: true } }] },
      },
      {
        name: 'lead resumes the interrupted run',
        systemIncludes: 'LEAD_P',
        lastMessageIncludes: 'is interrupted',
        answer: () => ({ toolCalls: [{ name: 'agent_run', arguments: { run_id: runId } }] }),
      },
      { name: 'lead reports', systemIncludes: 'LEAD_P', lastIsToolResult: true, answer: { text: 'LEAD_OK' } },
      { name: 'slowpoke hangs before the restart', systemIncludes: 'SLOW_P', when: () => !releaseWorker, answer: { hang: true } },
      { name: 'slowpoke answers after it', systemIncludes: 'SLOW_P', answer: { text: 'JOB_X=done' } },
    ]);
    running = await startRealCliApp(model);
    for (const agent of [
      { id: 'lead', name: 'Lead', system_message: { mode: 'append', content: 'LEAD_P delegates.' } },
      { id: 'slowpoke', name: 'Slowpoke', system_message: { mode: 'append', content: 'SLOW_P computes.' } },
    ]) {
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  const sessionStatus = async (id: string) => (await http('GET', `/api/sessions/${id}`)).body.status;

  it('interrupts the run at restart, reminds the lead, and completes it when the lead resumes it', async () => {
    const session = (await http('POST', '/api/sessions', { agentId: 'lead', delegation: true })).body;
    await http('POST', `/api/sessions/${session.sessionId}/messages`, { prompt: 'Start the job.' });
    await waitUntil(() => model.requests.some((r) => r.rule === 'slowpoke hangs before the restart'), 'the run to be working', 60_000);
    await waitUntil(async () => (await sessionStatus(session.sessionId)) === 'idle', 'the lead turn', 60_000);
    const [run] = ((await http('GET', '/api/runs')).body.runs as Json[]).filter((r) => r.ownerThreadId === session.sessionId);
    runId = run.runId;
    expect(run.status).toBe('running');

    await running.restart();
    releaseWorker = true;

    const interrupted = (await http('GET', `/api/runs/${runId}`)).body;
    expect(interrupted).toMatchObject({ status: 'interrupted', epoch: 1, output: null });
    expect(interrupted.error).toMatch(/Switchboard restarted while the run was running/);
    // Recovery did not re-run it: nothing reached the model for it since the restart.
    expect(model.requests.filter((r) => r.rule === 'slowpoke answers after it')).toHaveLength(0);

    expect((await http('POST', `/api/sessions/${session.sessionId}/resume`)).status).toBe(200);
    await http('POST', `/api/sessions/${session.sessionId}/messages`, { prompt: 'What about the job?' });
    await waitUntil(async () => (await sessionStatus(session.sessionId)) === 'idle', 'the lead turn after the restart', 60_000);

    const resumed = (await http('GET', `/api/runs/${runId}`)).body;
    expect(resumed).toMatchObject({ status: 'completed', epoch: 2, output: 'JOB_X=done', threadId: `sub-agent-${runId}` });
    // The lead got the output as the result of its agent_run {run_id} call.
    const report = model.requests.find((r) => r.rule === 'lead reports' && r.allText.includes('JOB_X=done'));
    expect(report).toBeDefined();
    // Resuming used the run's own session: its conversation still holds the first prompt.
    const workerTurn = model.requests.find((r) => r.rule === 'slowpoke answers after it');
    expect(workerTurn?.allText).toContain('Compute JOB_X.');
  }, 180_000);
});
