import { Logger } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import type { SwitchboardConfig } from '../../src/config/switchboard-config';
import { OwnedByOtherInstanceError } from '../../src/instances/instance.errors';
import { InstanceLease, type LostLease } from '../../src/instances/instance-lease';
import type { Lease } from '../../src/instances/lease-rules';
import { LeaseMonitor } from '../../src/instances/lease-monitor';
import { HeldRuns } from '../../src/delegation/held-runs';
import { RunsReadModel } from '../../src/run-lineage/runs-read-model';
import { HeldWork } from '../../src/sessions/held-work';
import { SessionsReadModel } from '../../src/sessions/sessions-read-model';
import { LiveSession } from '../../src/sessions/live-session';
import { openTestEventStore, type TestEventStore } from '../fixtures/event-store-fixture';
import { openLiveSessionLookup } from '../fixtures/live-session-lookup';
import { type ReadModelTarget, readModelTargets } from '../fixtures/read-model-targets';
import { makeTempDir } from '../fixtures/temp-dir';
import { testConfig } from '../fixtures/test-config';

jest.setTimeout(120_000);
// Claims and lost leases are logged as warnings and errors: quiet unless asked for, as the app is in tests.
if (!process.env.SWITCHBOARD_TEST_LOGS) Logger.overrideLogger(false);

const T0 = new Date('2030-01-01T00:00:00.000Z');
const TTL_MS = 5_000;
const after = (ms: number) => new Date(T0.getTime() + ms);

const tmp = makeTempDir();
afterAll(() => tmp.cleanup());
const config: SwitchboardConfig = testConfig(tmp.dir, { instances: { publicUrl: undefined, heartbeatMs: 1_000, leaseTtlMs: TTL_MS } });

/** One instance's lease and monitor on the shared database, on a clock the test moves (no timers run). */
interface Instance {
  lease: InstanceLease;
  monitor: LeaseMonitor;
  held: HeldWork;
  heldRuns: HeldRuns;
}

/**
 * spec: issue 15, several instances. Each instance holds a lease row; a dead one's row is claimed by
 * exactly one other instance (one `DELETE ... RETURNING`), a heartbeat moves the expiry on and finds
 * its row gone when it was claimed, and the queries for what an instance holds read the same on both
 * databases. Every instance here shares one database (on PostgreSQL through a pool of two
 * connections, so the racing claims run on two connections at once).
 */
describe.each(readModelTargets())('instance leases on %s', (name, open) => {
  let side: ReadModelTarget;
  let now: Date;

  beforeEach(async () => {
    side = await open();
    now = T0;
  });

  afterEach(async () => {
    await side?.close();
  });

  async function start(publicUrl?: string): Promise<Instance> {
    const lease = new InstanceLease({ ...config, instances: { ...config.instances, publicUrl } }, side.db);
    lease.clock = () => now;
    await lease.join();
    return {
      lease,
      monitor: new LeaseMonitor(config, side.db, lease),
      held: new HeldWork(new SessionsReadModel(side.db), lease),
      heldRuns: new HeldRuns(config, new RunsReadModel(side.db), new SessionsReadModel(side.db), lease),
    };
  }

  async function leaseRows(): Promise<Lease[]> {
    const { instanceLeases } = side.db.tables;
    return side.db.orm.select().from(instanceLeases).orderBy(instanceLeases.instanceId);
  }

  it('writes a row per instance: a fresh uuid v7, its address, pid, host and expiry one TTL after the heartbeat', async () => {
    const a = await start('https://sb-a.example.com');
    const b = await start();
    expect(a.lease.instanceId).not.toBe(b.lease.instanceId);
    expect(a.lease.instanceId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    const rows = await leaseRows();
    expect(rows.find((r) => r.instanceId === a.lease.instanceId)).toEqual({
      instanceId: a.lease.instanceId,
      address: 'https://sb-a.example.com',
      pid: process.pid,
      hostname: a.lease.hostname,
      startedAt: expect.any(String),
      heartbeatAt: T0.toISOString(),
      expiresAt: after(TTL_MS).toISOString(),
    });
    expect(rows.find((r) => r.instanceId === b.lease.instanceId)?.address).toBe(`http://127.0.0.1:${config.port}`);
  });

  it('sees the others live until they expire on PostgreSQL; on SQLite, where one process holds the file, never', async () => {
    const a = await start();
    const b = await start();
    const othersLive = (await a.lease.liveOtherIds()).has(b.lease.instanceId);
    expect(othersLive).toBe(name === 'PostgreSQL');
    expect((await a.lease.liveInstances()).map((l) => l.instanceId)).toContain(a.lease.instanceId);
    now = after(TTL_MS + 1);
    expect(await a.lease.liveOtherIds()).toEqual(new Set());
  });

  it('moves the expiry on at each heartbeat, and a renewed lease is not claimed with the old expiry', async () => {
    const a = await start();
    const b = await start();
    now = after(2_000);
    expect(await a.lease.heartbeat()).toBe(true);
    const row = (await leaseRows()).find((r) => r.instanceId === a.lease.instanceId);
    expect(row).toMatchObject({ heartbeatAt: after(2_000).toISOString(), expiresAt: after(2_000 + TTL_MS).toISOString() });
    // The claim checks the expiry again in the statement: a claimer that read the old expiry gets nothing.
    expect(await b.monitor.claim(a.lease.instanceId, after(TTL_MS + 1).toISOString())).toBeUndefined();
    expect((await leaseRows()).map((r) => r.instanceId)).toContain(a.lease.instanceId);
  });

  it('gives a dead lease to exactly one of two claimers racing for it', async () => {
    const dead = await start();
    const victims = await Promise.all(Array.from({ length: 20 }, () => start()));
    const a = await start();
    const b = await start();
    now = after(TTL_MS + 1);
    await Promise.all([a.lease.heartbeat(), b.lease.heartbeat()]);
    for (const victim of victims) {
      const id = victim.lease.instanceId;
      const won = await Promise.all([a.monitor.claim(id, now.toISOString()), b.monitor.claim(id, now.toISOString())]);
      expect(won.filter((l) => l !== undefined).map((l) => l.instanceId)).toEqual([id]);
    }
    const [fromA, fromB] = await Promise.all([a.monitor.claimDead(), b.monitor.claimDead()]);
    const claimedByA = fromA.map((l) => l.instanceId);
    const claimedByB = fromB.map((l) => l.instanceId);
    expect(claimedByA.filter((id) => claimedByB.includes(id))).toEqual([]);
    expect([...claimedByA, ...claimedByB]).toContain(dead.lease.instanceId);
    expect((await leaseRows()).map((r) => r.instanceId)).not.toContain(dead.lease.instanceId);
  });

  it('has each dead lease taken over once across instances, only after each context recovered, retrying a failed takeover', async () => {
    const dead = await start();
    const a = await start();
    const b = await start();
    const deadId = dead.lease.instanceId;
    const takenOver: string[] = [];
    let failFirst = true;
    const participations = [a, b].flatMap(({ monitor, lease }) => [
      monitor.join('sessions', async (claimed: Lease) => {
        if (claimed.instanceId !== deadId) return; // on SQLite a and b also see each other as dead
        if (failFirst) {
          failFirst = false;
          throw new Error('database busy');
        }
        takenOver.push(`${lease.instanceId} sessions`);
      }),
      monitor.join('runs', async (claimed: Lease) => {
        if (claimed.instanceId === deadId) takenOver.push(`${lease.instanceId} runs`);
      }),
    ]);
    now = after(TTL_MS + 1);
    await Promise.all([a.lease.heartbeat(), b.lease.heartbeat()]);

    // No context recovered yet: nothing is claimed (a restart records its own reasons first).
    expect(await Promise.all([a.monitor.tick(), b.monitor.tick()])).toEqual([[], []]);
    expect((await leaseRows()).map((r) => r.instanceId)).toContain(deadId);

    participations.forEach((p) => p.recovered());
    await Promise.all([a.monitor.tick(), b.monitor.tick()]);
    expect(takenOver.filter((t) => t.endsWith(' sessions'))).toEqual([]); // the claimer's first takeover failed
    // The claimer keeps the claimed lease and finishes the takeover at its next beat; nobody else can.
    await Promise.all([a.monitor.tick(), b.monitor.tick()]);
    const sessionTakeovers = takenOver.filter((t) => t.endsWith(' sessions'));
    expect(sessionTakeovers).toHaveLength(1);
    const claimer = sessionTakeovers[0].split(' ')[0];
    // Every context of the claimer ran (the runs one again with the retry: each takeover is idempotent), no other instance's.
    expect(new Set(takenOver.map((t) => t.split(' ')[0]))).toEqual(new Set([claimer]));
    expect((await leaseRows()).map((r) => r.instanceId)).not.toContain(deadId);
  });

  it('finds its row gone at the next heartbeat after another instance claimed it: lost$, then a fresh id', async () => {
    const a = await start();
    const b = await start();
    const lost: LostLease[] = [];
    a.lease.lost$.subscribe((l) => lost.push(l));
    const firstId = a.lease.instanceId;

    // A pauses longer than the TTL; B beats on and claims A's lease.
    now = after(TTL_MS + 1);
    await b.lease.heartbeat();
    expect((await b.monitor.claimDead()).map((l) => l.instanceId)).toEqual([firstId]);

    expect(await a.lease.heartbeat()).toBe(false);
    expect(lost).toEqual([{ instanceId: firstId, reason: expect.stringContaining(`the lease of instance ${firstId} was claimed by another instance`) }]);
    expect(a.lease.instanceId).not.toBe(firstId);
    expect((await leaseRows()).map((r) => r.instanceId).sort()).toEqual([a.lease.instanceId, b.lease.instanceId].sort());
    expect(await a.lease.heartbeat()).toBe(true);
    expect(lost).toHaveLength(1);
  });

  it('releases its lease at a graceful stop: expired at once, claimed by the next beat of another instance', async () => {
    const a = await start();
    const b = await start();
    now = after(1_000);
    await a.lease.release();
    const row = (await leaseRows()).find((r) => r.instanceId === a.lease.instanceId);
    expect(row).toMatchObject({ heartbeatAt: after(1_000).toISOString(), expiresAt: after(1_000).toISOString() });
    now = after(1_001);
    expect((await b.monitor.claimDead()).map((l) => l.instanceId)).toEqual([a.lease.instanceId]);
  });

  describe('what an instance holds', () => {
    async function session(sessionId: string, ownerInstance: string | null, status: string) {
      const { orm, tables } = side.db;
      await orm.insert(tables.sessions).values({
        sessionId,
        status,
        model: 'gpt-4.1',
        config: JSON.stringify({ model: 'gpt-4.1', tools: [], customAgents: [], subAgents: [] }),
        protocolVersion: 3,
        lastPosition: 2 ** 40,
        createdAt: T0.toISOString(),
        updatedAt: T0.toISOString(),
        ownerInstance,
      });
    }

    async function run(runId: string, status: string, launchedAt = T0) {
      const { orm, tables } = side.db;
      await orm.insert(tables.runs).values({
        runId,
        agentId: 'worker',
        prompt: 'p',
        status,
        background: true,
        ownerThreadId: 'api',
        rootRunId: runId,
        depth: 0,
        path: `/${runId}/`,
        threadId: `sub-agent-${runId}`,
        epoch: 1,
        policy: '{}',
        startedAt: T0.toISOString(),
        launchedAt: launchedAt.toISOString(),
        updatedAt: T0.toISOString(),
      });
    }

    it('reads its sessions still held, its running runs, and the runs nobody running holds', async () => {
      const a = await start();
      const b = await start();
      const dead = 'instance-gone';
      await session('s-active', dead, 'active');
      await session('s-running', dead, 'running');
      await session('s-interrupted', dead, 'interrupted');
      await session('s-destroyed', dead, 'destroyed');
      await session('s-of-b', b.lease.instanceId, 'idle');
      await session('s-unowned', null, 'idle');
      for (const [runId, status, owner] of [
        ['r-dead', 'running', dead],
        ['r-dead-done', 'completed', dead],
        ['r-of-b', 'running', b.lease.instanceId],
        ['r-unowned', 'running', null],
      ] as const) {
        await run(runId, status);
        await session(`sub-agent-${runId}`, owner, 'running');
      }
      // No session yet: on PostgreSQL another instance's launch in progress, until a TTL after it.
      await run('r-no-session', 'running');
      await run('r-no-session-old', 'running', new Date(T0.getTime() - TTL_MS - 1));

      expect((await a.held.sessionsHeldBy(dead)).map((s) => s.sessionId).sort()).toEqual([
        's-active',
        's-running',
        'sub-agent-r-dead',
        'sub-agent-r-dead-done',
      ]);
      expect(await a.heldRuns.runningRunsHeldBy(dead)).toEqual(['r-dead']);
      // B runs on PostgreSQL, so its run is its own; on SQLite there is no other instance.
      const expected = ['r-dead', 'r-no-session-old', 'r-unowned', ...(name === 'PostgreSQL' ? [] : ['r-of-b', 'r-no-session'])];
      expect((await a.heldRuns.runningRunsNotHeldElsewhere()).sort()).toEqual(expected.sort());
      // A TTL later the sessionless one was left over by its instance, whichever database.
      now = after(TTL_MS + 1);
      await a.lease.heartbeat();
      expect(await a.heldRuns.runningRunsNotHeldElsewhere()).toContain('r-no-session');
    });

    it('answers 409 for a session another running instance holds, naming it and its address; nothing once it is gone', async () => {
      const a = await start();
      const b = await start('https://sb-b.example.com');
      await session('s-b', b.lease.instanceId, 'idle');
      await session('s-a', a.lease.instanceId, 'idle');
      await session('s-old', 'previous-incarnation', 'interrupted');

      expect(await a.held.assertNotHeldElsewhere('s-a')).toMatchObject({ holder: { kind: 'here' } });
      expect(await a.held.assertNotHeldElsewhere('s-old')).toMatchObject({ holder: { kind: 'free', instanceId: 'previous-incarnation' } });
      expect(await a.held.assertNotHeldElsewhere('s-missing')).toBeUndefined();
      if (name === 'PostgreSQL') {
        const refusal = await a.held.assertNotHeldElsewhere('s-b', 'Run r-1').catch((error: unknown) => error);
        expect(refusal).toBeInstanceOf(OwnedByOtherInstanceError);
        expect(refusal).toMatchObject({
          code: 'owned_by_other_instance',
          message: `Run r-1 is live on instance ${b.lease.instanceId} at https://sb-b.example.com; send the request there`,
          details: { ownerInstance: b.lease.instanceId, address: 'https://sb-b.example.com' },
        });
      } else {
        // One instance by construction: another row is a previous incarnation, whose sessions are free.
        expect(await a.held.assertNotHeldElsewhere('s-b')).toMatchObject({ holder: { kind: 'free', instanceId: b.lease.instanceId } });
      }

      // B stops heart-beating: its session is free for any instance to take.
      now = after(TTL_MS + 1);
      expect(await a.held.assertNotHeldElsewhere('s-b')).toMatchObject({ holder: { kind: 'free', instanceId: b.lease.instanceId } });
      const { instanceLeases } = side.db.tables;
      await side.db.orm.delete(instanceLeases).where(eq(instanceLeases.instanceId, b.lease.instanceId));
      expect(await a.held.assertNotHeldElsewhere('s-b')).toMatchObject({ session: { sessionId: 's-b', status: 'idle' }, holder: { kind: 'free' } });
    });
  });

  describe('LiveSessionLookup, the one place that decides', () => {
    let log: TestEventStore;

    beforeEach(() => {
      log = openTestEventStore();
    });

    afterEach(() => log?.close());

    async function sessionRow(sessionId: string, ownerInstance: string | null, status: string) {
      const { orm, tables } = side.db;
      await orm.insert(tables.sessions).values({
        sessionId,
        status,
        model: 'gpt-4.1',
        config: JSON.stringify(sessionConfig),
        protocolVersion: 3,
        lastPosition: 1,
        createdAt: T0.toISOString(),
        updatedAt: T0.toISOString(),
        ownerInstance,
      });
      // The stream the session's commands decide on.
      await log.store.append(`session-${sessionId}`, 'no_stream', [
        { type: 'session.created', data: { sessionId, config: sessionConfig } },
        { type: 'session.started', data: { protocolVersion: 3, teamAgents: [] } },
      ]);
    }

    const sessionConfig = { model: 'gpt-4.1', tools: [], customAgents: [], permissionPolicy: { allowKinds: [], approveOwnTools: true }, subAgents: [] };

    it('refuses a session another running instance holds with 409 (on PostgreSQL); takes one whose instance is gone, interrupted', async () => {
      const other = await start('https://sb-b.example.com');
      const { lookup, registry, lease } = await openLiveSessionLookup(config, side.db, log.store);
      lease.clock = () => now;
      await sessionRow('s-other', other.lease.instanceId, 'idle');
      await sessionRow('s-gone', 'instance-gone', 'running');

      const taken = await lookup.get('s-gone');
      expect(registry.get('s-gone')).toBe(taken);
      expect(taken).toMatchObject({ status: 'interrupted', cliGeneration: 0 });
      const recorded = await log.store.readStream('session-s-gone');
      expect(recorded.at(-1)).toMatchObject({
        type: 'session.interrupted',
        data: { reason: 'instance instance-gone is gone; resume the session on any instance' },
      });
      // Asked again: the same session, interrupted once.
      await expect(lookup.get('s-gone')).resolves.toBe(taken);
      expect((await log.store.readStream('session-s-gone')).filter((e) => e.type === 'session.interrupted')).toHaveLength(1);

      if (name === 'PostgreSQL') {
        await expect(lookup.get('s-other')).rejects.toMatchObject({
          code: 'owned_by_other_instance',
          details: { ownerInstance: other.lease.instanceId, address: 'https://sb-b.example.com' },
        });
        expect(registry.get('s-other')).toBeUndefined();
        expect(await log.store.readStream('session-s-other')).toHaveLength(2);
        // Its instance stops heart-beating: the session is this one's to take.
        now = after(TTL_MS + 1);
      }
      // Idle when its instance went away (no turn under way): taken as it was, on no CLI yet, for its next message to resume (issue 39).
      await expect(lookup.get('s-other')).resolves.toMatchObject({ status: 'idle', cliGeneration: 0 });
      expect((await log.store.readStream('session-s-other')).filter((e) => e.type === 'session.interrupted')).toHaveLength(0);
    });

    it('never takes a session this instance is creating (its row is there, its LiveSession not yet)', async () => {
      const { lookup, registry, lease } = await openLiveSessionLookup(config, side.db, log.store);
      await sessionRow('s-creating', lease.instanceId, 'starting');
      await expect(lookup.get('s-creating')).rejects.toMatchObject({ code: 'invalid_state', message: expect.stringContaining('is starting') });
      expect(registry.get('s-creating')).toBeUndefined();
      expect(await log.store.readStream('session-s-creating')).toHaveLength(2);
    });

    it('asks again who holds a session it only loaded (generation 0), but not one it took live', async () => {
      const other = await start('https://sb-b.example.com');
      const { lookup, registry } = await openLiveSessionLookup(config, side.db, log.store);
      await sessionRow('s-loaded', other.lease.instanceId, 'idle');
      await sessionRow('s-mine', other.lease.instanceId, 'idle');
      const loaded = new LiveSession('s-loaded', sessionConfig, 'interrupted', 0);
      const mine = new LiveSession('s-mine', sessionConfig, 'idle', 1);
      registry.add(loaded);
      registry.add(mine);

      await expect(lookup.get('s-mine')).resolves.toBe(mine);
      if (name === 'PostgreSQL') await expect(lookup.get('s-loaded')).rejects.toBeInstanceOf(OwnedByOtherInstanceError);
      else await expect(lookup.get('s-loaded')).resolves.toBe(loaded);
    });
  });
});
