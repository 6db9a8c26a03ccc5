import * as path from 'node:path';
import { type AppStore, appStoreTargets } from '../fixtures/app-store-targets';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { hasExited } from '../fixtures/process-tree';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { type ServiceProcess, startServiceProcess } from '../fixtures/service-process';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';

/** More than twice the heartbeat (the config refuses less): on PostgreSQL the killed instance's lease must expire. */
const LEASE = { SWITCHBOARD_LEASE_HEARTBEAT_MS: '400', SWITCHBOARD_LEASE_TTL_MS: '1500' };
/** Twenty chunks 250 ms apart: five seconds of answer, the kill lands in the middle of it. */
const SLOW_ANSWER = Array.from({ length: 20 }, (_, i) => `part-${String(i).padStart(2, '0')} `.padEnd(40, '.')).join('');

/**
 * spec: issue 25, Tests. Switchboard runs as its own process with the real Copilot CLI and is SIGKILLed
 * while a streamed model answer is passing through it. After a restart on the same database: every
 * model-call event acknowledged before the kill is still there, the finished call is still finished, and
 * no call is left in flight: the killed one is recorded interrupted (ModelCallRecovery).
 */
describe.each(appStoreTargets())('a kill -9 in the middle of a streamed model call (%s)', (_name, storeTarget) => {
  const model = new ScriptedModelServer();
  const tmp = makeTempDir();
  let store: AppStore;
  let service: ServiceProcess | undefined;
  const http = (...args: Parameters<ReturnType<typeof jsonHttp>>) => jsonHttp(() => (service as ServiceProcess).baseUrl)(...args);

  beforeAll(async () => {
    store = await storeTarget(tmp.dir);
    await model.start();
    model.setScript([
      { name: 'slow stream', lastMessageIncludes: 'STREAM_SLOWLY', answer: { text: SLOW_ANSWER }, chunkDelayMs: 250 },
      { name: 'quick', answer: { text: 'QUICK_DONE' } },
    ]);
  }, 60_000);

  afterAll(async () => {
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited.catch(() => undefined);
    }
    await model.stop();
    tmp.cleanup();
  });

  const start = async () => {
    service = await startServiceProcess(
      { ...store.env, ...LEASE, ...model.providerEnv(), COPILOT_CLI_HOME: path.join(tmp.dir, 'copilot-home') },
      { readyPath: '/health' },
    );
  };

  async function callEvents(): Promise<Json[]> {
    const events: Json[] = [];
    for (let after = 0; ;) {
      const page = (await http('GET', `/api/events?after=${after}&limit=1000`)).body;
      events.push(...(page.events as Json[]));
      if (page.events.length < 1000) break;
      after = Number(page.nextAfter);
    }
    return events.filter((e) => String(e.streamId).startsWith('model_call-'));
  }

  const rows = () => store.query('SELECT call_id, status, session_id, output_tokens FROM model_calls ORDER BY started_position');

  it('loses no acknowledged record and leaves no call in flight after the restart', async () => {
    await start();
    const quick = (await http('POST', '/api/sessions', {})).body.sessionId as string;
    await http('POST', `/api/sessions/${quick}/messages`, { prompt: 'Be quick' });
    await waitUntil(async () => (await http('GET', `/api/sessions/${quick}`)).body.status === 'idle', 'the quick turn to end', 60_000);

    const slow = (await http('POST', '/api/sessions', {})).body.sessionId as string;
    await http('POST', `/api/sessions/${slow}/messages`, { prompt: 'STREAM_SLOWLY please' });
    const [streaming] = await model.waitForRequests((r) => r.rule === 'slow stream', 1, 60_000);
    const acknowledged = await waitUntil(async () => {
      const events = await callEvents();
      return events.some((e) => e.type === 'model_call.started' && e.data.sessionId === slow) && events;
    }, 'the streamed call to be recorded started');
    await new Promise((resolve) => setTimeout(resolve, 1000)); // a few chunks through

    const cliPid = (await http('GET', '/health')).body.copilotCli?.pid as number | undefined;
    (service as ServiceProcess).child.kill('SIGKILL');
    await (service as ServiceProcess).exited;
    service = undefined;
    // The kill landed in the middle of the answer: the provider saw its request go away unfinished.
    await waitUntil(() => streaming.aborted, 'the provider to see the streamed request dropped');
    if (cliPid) await waitUntil(() => hasExited(cliPid), 'the orphaned CLI to exit', 10_000);

    await start();
    // On SQLite the restart records it at start; on PostgreSQL once the killed instance's lease has expired.
    await waitUntil(async () => (await rows()).every((r) => r.status !== 'in_flight'), 'no call in flight', 15_000);
    const after = await rows();
    const slowCall = acknowledged.find((e): e is Json => e.type === 'model_call.started' && e.data.sessionId === slow);
    if (!slowCall) throw new Error('the streamed call was not recorded');
    expect(after.find((r) => r.call_id === slowCall.data.callId)).toMatchObject({ status: 'interrupted' });
    expect(after.filter((r) => r.session_id === quick).map((r) => r.status)).toEqual(
      acknowledged.filter((e) => e.type === 'model_call.started' && e.data.sessionId === quick).map(() => 'succeeded'),
    );
    expect(after.filter((r) => r.session_id === quick).every((r) => Number(r.output_tokens) > 0)).toBe(true);

    const events = await callEvents();
    const kept = new Set(events.map((e) => e.eventId));
    expect(acknowledged.filter((e) => !kept.has(e.eventId))).toEqual([]);
    const interrupted = events.filter((e) => e.type === 'model_call.interrupted');
    expect(interrupted).toEqual([expect.objectContaining({ streamId: slowCall.streamId, data: expect.objectContaining({ sessionId: slow }) })]);
  }, 120_000);
});
