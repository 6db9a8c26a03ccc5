import { Inject, Injectable } from '@nestjs/common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { InstanceLease, launchSettled } from '../instances';
import { RunsReadModel } from '../run-lineage';
import { SessionsReadModel } from '../sessions';

/**
 * Which running runs an instance holds: a run is held where its thread's session is (`sub-agent-<runId>`,
 * the sessions' `owner_instance`); issue 43: a remote agent's run, where its remote task is followed (the
 * instance its `run.remote_task_linked` names). Two reads, each through its owner: the running runs, then
 * their sessions' holders.
 */
@Injectable()
export class HeldRuns {
  private readonly leaseTtlMs: number;

  constructor(
    @Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig,
    private readonly runs: RunsReadModel,
    private readonly sessions: SessionsReadModel,
    private readonly lease: InstanceLease,
  ) {
    this.leaseTtlMs = config.instances.leaseTtlMs;
  }

  /** The runs still running on the instance's sessions. */
  async runningRunsHeldBy(instanceId: string): Promise<string[]> {
    const { running, owners } = await this.runningAndHolders();
    return running.filter((r) => owners.get(r.threadId) === instanceId).map((r) => r.runId);
  }

  /** The running runs, and who holds each by its thread: its session's owner, or its remote task's follower. */
  private async runningAndHolders() {
    const running = await this.runs.runningWithThreads();
    const owners = await this.sessions.ownersOf(running.filter((r) => !r.remote).map((r) => r.threadId));
    for (const r of running) {
      const follower = remoteFollower(r.remote);
      if (follower) owners.set(r.threadId, follower);
    }
    return { running, owners };
  }

  /**
   * The running runs no other running instance holds (their session's owner is gone, this instance's
   * previous incarnation, or unrecorded): what start-up recovery interrupts. A run with no session yet
   * is another instance's launch in progress until it is a TTL old (on SQLite there is no other instance).
   */
  async runningRunsNotHeldElsewhere(): Promise<string[]> {
    const elsewhere = await this.lease.liveOtherIds();
    const { running, owners } = await this.runningAndHolders();
    const view = this.lease.view();
    return running
      .filter((r) => {
        if (!owners.has(r.threadId)) return launchSettled(r.launchedAt, view, this.leaseTtlMs);
        const owner = owners.get(r.threadId);
        return !owner || !elsewhere.has(owner);
      })
      .map((r) => r.runId);
  }
}

/** The instance following a remote run's task (`runs.remote`'s `instanceId`), once one is linked. */
function remoteFollower(remote: string | null): string | undefined {
  if (!remote) return undefined;
  const instanceId: unknown = (JSON.parse(remote) as { instanceId?: unknown }).instanceId;
  return typeof instanceId === 'string' ? instanceId : undefined;
}
