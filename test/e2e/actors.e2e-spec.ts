import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config/switchboard-config';
import { startTestApp } from '../fixtures/app-fixture';
import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, type JsonHttp, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { testDatabaseFile } from '../fixtures/test-config';
import { waitUntil } from '../fixtures/wait-until';

const TOKEN = 'actors-e2e-token-0123456789';

/** A promise the test opens when it is ready. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * issue 27, "a name on every decision", on the real app and the real Copilot CLI with a scripted model:
 * what a named key does (a session with a budget, pause, unpause, steer, an approval, a stop) records
 * the key as its actor, shown in the views and filterable in the audit log; what the lead agent does
 * through agent_run records the agent with its lineage; the run's own launch is Switchboard's, not
 * the key's that started the session.
 */
describe('actors: who did what', () => {
  const model = new ScriptedModelServer();
  const workerAsks = gate();
  const workerFinishes = gate();
  let running: RealCliApp;
  let operator: JsonHttp;
  let bot: JsonHttp;
  let botKey: string;
  let botId: string;

  beforeAll(async () => {
    await model.start();
    model.setScript([
      {
        name: 'lead delegates',
        systemIncludes: 'LEAD_P',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'worker', prompt: 'WORKER_TASK run it', background: true } }] },
      },
      { name: 'lead wraps up', systemIncludes: 'LEAD_P', lastIsToolResult: true, answer: { text: 'LEAD_DONE' } },
      {
        name: 'worker runs a command',
        systemIncludes: 'WORKER_P',
        lastIsToolResult: false,
        until: () => workerAsks.opened,
        // Once: what the CLI sends next depends on when the steer below reaches it (after the command's
        // result, or first, moving the command to the background), and any of those is the worker reporting.
        times: 1,
        answer: { toolCalls: [{ name: 'bash', arguments: { command: 'echo W_$((1+1))', description: 'print a number' } }] },
      },
      { name: 'worker reports', systemIncludes: 'WORKER_P', until: () => workerFinishes.opened, answer: { text: 'WORKER_DONE' } },
    ]);
    running = await startRealCliApp(model, { apiToken: TOKEN, security: { ...loadConfig({}).security, allowHostPermissions: true } });
    operator = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${TOKEN}` });
    for (const agent of [
      { id: 'lead', name: 'Lead', system_message: { mode: 'append', content: 'LEAD_P you delegate.' } },
      { id: 'worker', name: 'Worker', description: 'Runs commands', system_message: { mode: 'append', content: 'WORKER_P you run commands.' } },
    ]) {
      expect((await operator('POST', '/api/agents', agent)).status).toBe(201);
    }
    const created = await operator('POST', '/api/keys', { name: 'ci-bot', role: 'admin' });
    expect(created.status).toBe(201);
    botKey = created.body.key;
    botId = created.body.apiKey.id;
    bot = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${botKey}` });
  }, 60_000);

  afterAll(async () => {
    workerAsks.open();
    workerFinishes.open();
    await running?.close();
    await model.stop();
  });

  const eventsOf = async (streamId: string): Promise<Json[]> => {
    const response = await operator('GET', `/api/streams/${streamId}/events?limit=1000`);
    // A stream that is not written yet answers 404: no events so far, which a wait reads as "not yet".
    if (response.status === 404) return [];
    expect(response.status).toBe(200);
    return response.body.events as Json[];
  };
  const byOf = (events: Json[], type: string): Json => events.find((e) => e.type === type)?.metadata?.by;

  it('records the key, the agent and Switchboard each as the actor of what they did, and filters the audit log by actor', async () => {
    const keyActor = { kind: 'key', id: botId, name: 'ci-bot', via: 'api' };

    // A session with a budget, started by the key.
    const session = await bot('POST', '/api/sessions', {
      agentId: 'lead',
      delegation: true,
      permissionPolicy: { askKinds: ['shell'] },
      budget: { max_runs: 5 },
    });
    expect(session.status).toBe(201);
    const sessionId = session.body.sessionId as string;
    expect(byOf(await eventsOf(`session-${sessionId}`), 'session.created')).toEqual(keyActor);

    // The lead starts a run through agent_run: the agent's actor, with its lineage.
    expect((await bot('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'ACTOR_SCENARIO delegate it' })).status).toBe(202);
    const run = await waitUntil(
      async () => ((await operator('GET', '/api/runs')).body.runs as Json[]).find((r) => r.ownerThreadId === sessionId),
      'the run the lead started',
      60_000,
    );
    const runId = run.runId as string;
    const runEvents = await eventsOf(`run-${runId}`);
    expect(byOf(runEvents, 'run.started')).toEqual({ kind: 'agent', id: `session:${sessionId}`, name: 'lead', lineage: ['lead'] });
    // The run's own session is created by its launch: Switchboard's, not the key's nor the agent's.
    await waitUntil(async () => (await eventsOf(`session-sub-agent-${runId}`)).some((e) => e.type === 'session.created'), "the run's session", 60_000);
    expect(byOf(await eventsOf(`session-sub-agent-${runId}`), 'session.created')).toMatchObject({ kind: 'system' });
    await waitUntil(async () => model.requests.some((r) => r.rule === 'worker runs a command'), "the worker's model call", 60_000);

    // Pause and unpause by the key: the view names it, the old `by` stays the client.
    const paused = await bot('POST', `/api/runs/${runId}/pause`, { reason: 'look first' });
    expect(paused.status).toBe(200);
    expect(paused.body.pause).toMatchObject({ by: 'api', actor: keyActor });
    expect((await operator('GET', `/api/runs/${runId}`)).body.pause).toMatchObject({ by: 'api', actor: keyActor });
    const pausedOverGraphql = await graphqlHttp(() => running.app.baseUrl, TOKEN)(`{ run(id: "${runId}") { pause { by actor { kind id name } } } }`);
    expect(pausedOverGraphql.body.data.run.pause).toEqual({ by: 'api', actor: { kind: 'key', id: botId, name: 'ci-bot' } });
    expect((await bot('POST', `/api/runs/${runId}/unpause`)).status).toBe(200);

    // A steer by the key.
    expect((await bot('POST', `/api/runs/${runId}/steer`, { message: 'be brief' })).status).toBe(202);
    expect(byOf(await eventsOf(`session-sub-agent-${runId}`), 'session.steered')).toEqual(keyActor);

    // The worker's shell request waits for a person: the key decides it.
    workerAsks.open();
    const asked = await waitUntil(
      async () => ((await operator('GET', '/api/approvals?status=pending')).body.approvals as Json[]).find((a) => a.runId === runId),
      "the worker's approval",
      60_000,
    );
    expect(asked.decider).toBeNull();
    const decided = await bot('POST', `/api/approvals/${asked.id}`, { decision: 'approve' });
    expect(decided.status).toBe(200);
    const approval = (await operator('GET', `/api/approvals?sessionId=sub-agent-${runId}`)).body.approvals[0];
    expect(approval).toMatchObject({ status: 'decided', decidedBy: 'api', decider: keyActor });
    const overGraphql = await graphqlHttp(
      () => running.app.baseUrl,
      TOKEN,
    )(`{ approvals(filter: { sessionId: "sub-agent-${runId}" }) { edges { node { decidedBy decidedByName decider { kind id name via } } } } }`);
    expect(overGraphql.body.data.approvals.edges[0].node).toEqual({ decidedBy: 'api', decidedByName: 'ci-bot', decider: keyActor });

    // A stop by the key, while the worker's last answer is held.
    await waitUntil(async () => model.requests.some((r) => r.rule === 'worker reports'), "the worker's second model call", 60_000);
    expect((await bot('POST', `/api/runs/${runId}/stop`, { reason: 'enough' })).status).toBe(200);
    const stopped = (await operator('GET', `/api/runs/${runId}`)).body;
    expect(stopped).toMatchObject({ status: 'stopped', stoppedBy: { actor: 'api', reason: 'enough', by: keyActor } });

    // The audit log: the key's entries by actor id, the agent's by kind; the CLI's records are Switchboard's.
    const keyEntries = await waitUntil(
      async () => {
        const entries = (await operator('GET', `/api/audit?actor=${botId}&limit=1000`)).body.entries as Json[];
        return entries.some((e) => e.eventType === 'run.stopped') ? entries : undefined;
      },
      "the key's audit entries",
      30_000,
    );
    const keyTypes = new Set(keyEntries.map((e) => e.eventType));
    for (const type of [
      'session.created',
      'session.message_sent',
      'pause.paused',
      'pause.unpaused',
      'session.steered',
      'approval.decided',
      'run.stopped',
    ]) {
      expect(keyTypes).toContain(type);
    }
    expect(keyEntries.every((e) => e.actorKind === 'key' && e.actorId === botId && e.actorName === 'ci-bot')).toBe(true);
    expect(keyTypes).not.toContain('run.started');
    expect([...keyTypes].some((type) => type.startsWith('cli.'))).toBe(false);

    const agentEntries = (await operator('GET', `/api/audit?actorKind=agent&limit=1000`)).body.entries as Json[];
    expect(agentEntries.map((e) => [e.eventType, e.actorName])).toContainEqual(['run.started', 'lead']);
    const refused = await operator('GET', '/api/audit?actorKind=robot');
    expect(refused.status).toBe(400);

    const overGraphqlAudit = await graphqlHttp(
      () => running.app.baseUrl,
      TOKEN,
    )(`{ auditLog(filter: { actor: "${botId}", eventType: "approval.decided" }) { edges { node { eventType actorKind actorId actorName } } } }`);
    expect(overGraphqlAudit.body.data.auditLog.edges.map((e: Json) => e.node)).toEqual([
      { eventType: 'approval.decided', actorKind: 'key', actorId: botId, actorName: 'ci-bot' },
    ]);

    const csv = await fetch(`${running.app.baseUrl}/api/audit/export?format=csv&actor=${botId}&eventType=run.stopped`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const [header, row] = (await csv.text()).trim().split('\r\n');
    expect(header.split(',').slice(3, 7)).toEqual(['actor', 'actorKind', 'actorId', 'actorName']);
    expect(row.split(',').slice(4, 7)).toEqual(['key', botId, 'ci-bot']);
  }, 240_000);
});

describe('actors: an event recorded before actors', () => {
  it('reads as the api actor in the audit log, and is found by actor=api', async () => {
    const first = await startTestApp({ apiToken: TOKEN });
    await first.stop();
    // An event as Switchboard recorded them before issue 27: metadata without `by`.
    const db = new Database(testDatabaseFile(first.dir));
    const now = new Date().toISOString();
    db.prepare('INSERT INTO streams (stream_id, version, created_at, updated_at) VALUES (?, 1, ?, ?)').run('legacy-1', now, now);
    db.prepare('INSERT INTO events (event_id, stream_id, stream_position, type, data, metadata, recorded_at) VALUES (?, ?, 1, ?, ?, ?, ?)').run(
      randomUUID(),
      'legacy-1',
      'legacy.noted',
      '{}',
      JSON.stringify({ actor: 'api' }),
      now,
    );
    db.close();

    const again = await startTestApp({ apiToken: TOKEN }, first.dir);
    try {
      const http = jsonHttp(() => again.baseUrl, { authorization: `Bearer ${TOKEN}` });
      const entry = await waitUntil(
        async () => ((await http('GET', '/api/audit?actor=api')).body.entries as Json[]).find((e) => e.eventType === 'legacy.noted'),
        'the old event in the audit log',
        20_000,
      );
      expect(entry).toMatchObject({ actor: 'api', actorKind: 'key', actorId: 'api', actorName: 'api' });
    } finally {
      await again.close();
    }
  }, 60_000);
});
