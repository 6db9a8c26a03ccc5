import * as fs from 'node:fs';
import * as path from 'node:path';
import { type AppStore, appStoreTargets } from '../fixtures/app-store-targets';
import { makeRepository, workingDirectoryOf } from '../fixtures/git-repositories';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { type RequestContext, ScriptedModelServer } from '../fixtures/scripted-model-server';
import { type ServiceProcess, startServiceProcess } from '../fixtures/service-process';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';

/** More than twice the heartbeat (the config refuses less): on PostgreSQL the killed instance's lease must expire. */
const LEASE = { SWITCHBOARD_LEASE_HEARTBEAT_MS: '400', SWITCHBOARD_LEASE_TTL_MS: '1500' };

function createIn(request: RequestContext, file: string, text: string) {
  return { toolCalls: [{ name: 'create', arguments: { path: path.join(workingDirectoryOf(request), file), file_text: text } }] };
}

/**
 * issue 42, crash: Switchboard runs as its own process with the real Copilot CLI and is SIGKILLed while a
 * run that already wrote a file (checkpointed) waits on its model, with one more file in its worktree that no
 * checkpoint saw (a write cut off by the kill). After the restart that file is recorded as a `recovered`
 * checkpoint of the run; the run, interrupted, is resumed and goes on in the same worktree; when it completes
 * both files are merged into its lead's worktree.
 */
describe.each(appStoreTargets())('a kill -9 while a run works in its worktree (%s)', (_name, storeTarget) => {
  const model = new ScriptedModelServer();
  const tmp = makeTempDir();
  let store: AppStore;
  let service: ServiceProcess | undefined;
  let released = false;
  const http = (...args: Parameters<ReturnType<typeof jsonHttp>>) => jsonHttp(() => (service as ServiceProcess).baseUrl)(...args);
  const repository = path.join(fs.realpathSync(tmp.dir), 'repos', 'app');

  beforeAll(async () => {
    store = await storeTarget(tmp.dir);
    makeRepository(repository, { 'README.md': '# app\n' });
    await model.start();
    model.setScript([
      {
        name: 'lead delegates',
        systemIncludes: 'LEAD_CRASH',
        lastIsToolResult: false,
        times: 1,
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'writer', prompt: 'WRITE first.txt', background: true } }] },
      },
      { name: 'lead waits', systemIncludes: 'LEAD_CRASH', answer: { text: 'LEAD_WAITING' } },
      { name: 'writer writes', systemIncludes: 'WRITER_CRASH', times: 1, answer: (r) => createIn(r, 'first.txt', 'FIRST\n') },
      { name: 'writer hangs', systemIncludes: 'WRITER_CRASH', when: () => !released, answer: { hang: true } },
      { name: 'writer reports', systemIncludes: 'WRITER_CRASH', answer: { text: 'WRITER_DONE' } },
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
      {
        ...store.env,
        ...LEASE,
        ...model.providerEnv(),
        COPILOT_CLI_HOME: path.join(tmp.dir, 'copilot-home'),
        SWITCHBOARD_ALLOW_HOST_PERMISSIONS: 'true',
        SWITCHBOARD_REPOSITORIES: path.dirname(repository),
        SWITCHBOARD_WORKSPACES_DIR: path.join(tmp.dir, 'worktrees'),
      },
      { readyPath: '/health' },
    );
  };

  /** The run's checkpoints; none while its session (and so its worktree) is not made yet (404). */
  const checkpointsOf = async (runId: string): Promise<Json[]> => {
    const answer = await http('GET', `/api/runs/${runId}/checkpoints`);
    return answer.status === 200 ? (answer.body.checkpoints as Json[]) : [];
  };

  it('records what the kill cut off as recovered, resumes in the same worktree, and merges it all into the lead', async () => {
    await start();
    for (const agent of [
      { id: 'lead', name: 'Lead', system_message: { mode: 'append', content: 'LEAD_CRASH you delegate.' } },
      { id: 'writer', name: 'Writer', system_message: { mode: 'append', content: 'WRITER_CRASH you write.' } },
    ]) {
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
    const created = await http('POST', '/api/sessions', {
      agentId: 'lead',
      delegation: true,
      permissionPolicy: { allowKinds: ['write'] },
      workspace: { repository },
    });
    expect(created.status).toBe(201);
    const leadId = created.body.sessionId as string;
    const leadWorktree = (await http('GET', `/api/sessions/${leadId}`)).body.workingDirectory as string;
    expect((await http('POST', `/api/sessions/${leadId}/messages`, { prompt: 'go' })).status).toBe(202);

    const run = await waitUntil(
      async () => ((await http('GET', '/api/runs')).body.runs as Json[]).find((r) => r.ownerThreadId === leadId),
      'the run',
      60_000,
    );
    const runId = run.runId as string;
    await waitUntil(async () => (await checkpointsOf(runId)).some((c) => c.cause === 'tool'), "the run's first checkpoint", 60_000);
    await model.waitForRequests((r) => r.rule === 'writer hangs', 1, 60_000);
    const runWorktree = (await http('GET', `/api/sessions/sub-agent-${runId}`)).body.workingDirectory as string;
    // A write no checkpoint saw: the kill lands before any step ends.
    fs.writeFileSync(path.join(runWorktree, 'cut-off.txt'), 'HALF\n');

    (service as ServiceProcess).child.kill('SIGKILL');
    await (service as ServiceProcess).exited.catch(() => undefined);
    released = true;
    await start();

    const recovered = await waitUntil(async () => (await checkpointsOf(runId)).find((c) => c.cause === 'recovered'), 'the recovered checkpoint', 60_000);
    expect(recovered.files).toEqual([expect.objectContaining({ path: 'cut-off.txt', status: 'added' })]);
    await waitUntil(async () => (await http('GET', `/api/runs/${runId}`)).body.status === 'interrupted', 'the run interrupted', 60_000);

    expect((await http('POST', `/api/runs/${runId}/resume`, {})).status).toBe(200);
    await waitUntil(async () => (await http('GET', `/api/runs/${runId}`)).body.status === 'completed', 'the resumed run completed', 90_000);
    // The same worktree, and all of it reached the lead.
    expect((await http('GET', `/api/sessions/sub-agent-${runId}`)).body.workingDirectory).toBe(runWorktree);
    expect((await http('GET', `/api/runs/${runId}/output`)).body.workspace).toMatchObject({ merge: 'merged', conflicts: [] });
    expect(fs.readFileSync(path.join(leadWorktree, 'first.txt'), 'utf8')).toBe('FIRST\n');
    expect(fs.readFileSync(path.join(leadWorktree, 'cut-off.txt'), 'utf8')).toBe('HALF\n');
  }, 240_000);
});
