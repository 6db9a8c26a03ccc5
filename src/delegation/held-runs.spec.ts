import type { SwitchboardConfig } from '../config';
import type { InstanceLease } from '../instances';
import type { RunsReadModel } from '../run-lineage';
import type { SessionsReadModel } from '../sessions';
import { HeldRuns } from './held-runs';

const NOW = new Date('2026-12-07T12:00:00.000Z');
const LONG_AGO = '2026-12-07T11:00:00.000Z';

/**
 * Which instance holds a running run, on PostgreSQL with instances `a` (this one) and `b` alive, `dead` gone:
 * a local run by its session's owner; issue 43: a remote agent's run by the instance following its task.
 */
function heldRuns(running: Array<{ runId: string; remote?: object; sessionOwner?: string | null }>) {
  const rows = running.map((r) => ({
    runId: r.runId,
    threadId: `sub-agent-${r.runId}`,
    launchedAt: LONG_AGO,
    remote: r.remote ? JSON.stringify(r.remote) : null,
  }));
  const runs = { runningWithThreads: async () => rows } as unknown as RunsReadModel;
  const sessions = {
    ownersOf: async (ids: readonly string[]) =>
      new Map(
        running
          .filter((r) => r.sessionOwner !== undefined && ids.includes(`sub-agent-${r.runId}`))
          .map((r) => [`sub-agent-${r.runId}`, r.sessionOwner ?? null]),
      ),
  } as unknown as SessionsReadModel;
  const lease = {
    liveOtherIds: async () => new Set(['b']),
    view: () => ({ self: 'a', dialect: 'postgres', now: NOW }),
  } as unknown as InstanceLease;
  return new HeldRuns({ instances: { leaseTtlMs: 10_000 } } as SwitchboardConfig, runs, sessions, lease);
}

describe('HeldRuns', () => {
  const card = 'https://agents.example.com/a2a/x/.well-known/agent-card.json';
  const held = heldRuns([
    { runId: 'local-on-b', sessionOwner: 'b' },
    { runId: 'local-on-dead', sessionOwner: 'dead' },
    { runId: 'remote-followed-by-b', remote: { a2a: card, taskId: 't1', instanceId: 'b' } },
    { runId: 'remote-followed-by-dead', remote: { a2a: card, taskId: 't2', instanceId: 'dead' } },
    { runId: 'remote-never-sent', remote: { a2a: card } },
  ]);

  it("holds a remote agent's run where its task is followed, as a local run is held where its session is", async () => {
    expect(await held.runningRunsHeldBy('b')).toEqual(['local-on-b', 'remote-followed-by-b']);
    expect(await held.runningRunsHeldBy('dead')).toEqual(['local-on-dead', 'remote-followed-by-dead']);
  });

  it('leaves to start-up recovery the runs no live instance holds, a remote run never sent included', async () => {
    expect(await held.runningRunsNotHeldElsewhere()).toEqual(['local-on-dead', 'remote-followed-by-dead', 'remote-never-sent']);
  });
});
