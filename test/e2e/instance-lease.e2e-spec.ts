import Database from 'better-sqlite3';
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { FakeCopilotCli } from '../fixtures/fake-copilot-cli';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { parsePrometheusText, sampleValue } from '../fixtures/prometheus-text';
import { collectUntilExit, freePort, spawnTs, waitForHttp } from '../fixtures/service-process';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';

jest.setTimeout(120_000);

/** Ten minutes: whatever happens to the previous incarnation's lease in this test, it is not its expiry. */
const LEASE_TTL_MS = 600_000;

/**
 * spec: issue 15, several instances, on the embedded SQLite default. Each process start is a new
 * instance with a fresh lease; one process holds the file, so after a crash (SIGKILL: the lease is
 * neither released nor expired) the next start takes the previous incarnation's sessions over at once
 * (one between turns stays as it was, issue 39; one whose turn was under way is recorded interrupted
 * as before leases), and resuming makes the new instance their holder. A graceful stop releases the lease.
 */
describe('instance lease across a crash and a restart (SQLite)', () => {
  const tmp = makeTempDir();
  const file = path.join(tmp.dir, 'switchboard.db');
  const fake = new FakeCopilotCli();
  const children = new Set<ChildProcess>();
  let port = 0;
  const http = jsonHttp(() => `http://127.0.0.1:${port}`);

  beforeAll(async () => {
    await fake.start();
    port = await freePort();
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await fake.stop();
    tmp.cleanup();
  });

  async function startService(): Promise<ChildProcess> {
    const child = spawnTs('src/main.ts', [], {
      PORT: String(port),
      HOST: '127.0.0.1',
      SWITCHBOARD_DB: file,
      COPILOT_CLI_URL: fake.url,
      // Sessions need a provider; the fake CLI never calls it.
      COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:9/v1',
      COPILOT_PROVIDER_API_KEY: 'test',
      SWITCHBOARD_LEASE_HEARTBEAT_MS: '200',
      SWITCHBOARD_LEASE_TTL_MS: String(LEASE_TTL_MS),
      LOG_LEVEL: 'warn',
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
    await waitForHttp(`http://127.0.0.1:${port}/health/live`, child);
    return child;
  }

  const leaseRows = () => {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare('SELECT instance_id, address, heartbeat_at, expires_at FROM instance_leases').all() as Json[];
    } finally {
      db.close();
    }
  };
  const ownerOf = (sessionId: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT owner_instance FROM sessions WHERE session_id = ?').get(sessionId) as Json).owner_instance as string | null;
    } finally {
      db.close();
    }
  };
  const sessionEvents = async (sessionId: string) => (await http('GET', `/api/streams/session-${sessionId}/events?limit=1000`)).body.events as Json[];
  const instanceIdsOn = (events: Json[], type: string) => events.filter((e) => e.type === type).map((e) => e.metadata.instanceId);

  it('takes the crashed incarnation over at once, leaves its session between turns as it was, and holds what it resumes', async () => {
    const first = await startService();
    const health = (await http('GET', '/health')).body;
    const firstId = health.instance.id as string;
    expect(health.instance).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      address: `http://127.0.0.1:${port}`,
      liveInstances: [expect.objectContaining({ id: firstId, address: `http://127.0.0.1:${port}`, pid: first.pid })],
    });

    const created = await http('POST', '/api/sessions', {});
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;
    // Recorded with the instance that took it live, and kept as its holder in the read model.
    const recorded = await sessionEvents(sessionId);
    expect(instanceIdsOn(recorded, 'session.created')).toEqual([firstId]);
    expect(instanceIdsOn(recorded, 'session.started')).toEqual([firstId]);
    expect(ownerOf(sessionId)).toBe(firstId);

    first.kill('SIGKILL');
    await collectUntilExit(first);
    const crashed = leaseRows().find((r) => r.instance_id === firstId);
    expect(Date.parse(crashed!.expires_at)).toBeGreaterThan(Date.now()); // not expired: nothing released it

    await startService();
    const secondId = (await http('GET', '/health')).body.instance.id as string;
    expect(secondId).not.toBe(firstId);
    // One process holds the file: the crashed incarnation's lease is claimed at once, not at its expiry.
    await waitUntil(() => leaseRows().length === 1, 'the crashed lease to be claimed');
    expect(leaseRows().map((r) => r.instance_id)).toEqual([secondId]);
    expect((await http('GET', '/health')).body.instance.liveInstances.map((l: Json) => l.id)).toEqual([secondId]);
    const metrics = parsePrometheusText(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
    expect(sampleValue(metrics, 'switchboard_instances_live')).toBe(1);

    // No turn was under way: neither the start-up recovery nor the takeover of the crashed lease interrupts it.
    const session = (await http('GET', `/api/sessions/${sessionId}`)).body;
    expect(session).toMatchObject({ status: 'active', statusReason: null });
    expect(instanceIdsOn(await sessionEvents(sessionId), 'session.interrupted')).toEqual([]);

    fake.sessions.add(sessionId);
    expect((await http('POST', `/api/sessions/${sessionId}/resume`)).status).toBe(200);
    expect(instanceIdsOn(await sessionEvents(sessionId), 'session.resumed')).toEqual([secondId]);
    expect(ownerOf(sessionId)).toBe(secondId);
  });

  it('releases the lease at a graceful stop: expired at its last heartbeat', async () => {
    const [running] = [...children];
    const id = (await http('GET', '/health')).body.instance.id as string;
    running.kill('SIGTERM');
    expect((await collectUntilExit(running)).code).toBe(0);
    const released = leaseRows().find((r) => r.instance_id === id);
    expect(released).toMatchObject({ heartbeat_at: released!.expires_at });
  });
});
