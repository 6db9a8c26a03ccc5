import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { type Lease, takeoverReason, LeaseMonitor, type TakeoverParticipation } from '../instances';
import { HeldRuns } from './held-runs';
import { RunExecutor } from './run-executor';
import { RunHandleTable } from './run-handle-table';
import { RunRepository } from './run-repository';

/**
 * Records runs cut off from their executor as interrupted, with the reason (their owners are told with
 * `run.ended` in the same commit, and reminded at their next turn). The one decision both recoveries
 * make: at start, and when a dead instance's lease is claimed. Concurrently: the appends share group commits.
 */
export async function interruptRuns(repository: RunRepository, runIds: readonly string[], reason: string): Promise<void> {
  await Promise.all(runIds.map((runId) => repository.decide(runId, { type: 'interrupt', reason }, { actor: 'switchboard' })));
}

/**
 * spec: recovery. At start no run has an executor yet, so every run still `running` was cut off by a
 * crash or a stop of the service: it becomes `interrupted` with the reason. Nothing is re-run silently;
 * completed runs keep their output. With several instances: only the runs no other running instance
 * holds (a run is held where its session is), and a dead instance's running runs once its lease is
 * claimed here. issue 43: a remote agent's run whose task was linked is not cut off (its service still
 * runs it): it is followed again from here, without sending anything twice.
 */
@Injectable()
export class RunRecovery implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(RunRecovery.name);
  private takeover?: TakeoverParticipation;

  constructor(
    private readonly held: HeldRuns,
    private readonly repository: RunRepository,
    private readonly handles: RunHandleTable,
    private readonly monitor: LeaseMonitor,
    private readonly executor: RunExecutor,
  ) {}

  onModuleInit(): void {
    this.takeover = this.monitor.join('runs', (dead) => this.takeOver(dead));
  }

  async onApplicationBootstrap(): Promise<void> {
    const stale = (await this.held.runningRunsNotHeldElsewhere()).filter((runId) => !this.handles.has(runId));
    const cutOff = await this.followRemoteTasks(stale);
    if (cutOff.length > 0) {
      const reason = 'Switchboard restarted while the run was running; resume it with agent_run {run_id} (POST /api/runs/:id/resume) or stop it';
      await interruptRuns(this.repository, cutOff, reason);
      this.logger.warn({ runs: cutOff.length }, 'runs without a live executor marked interrupted');
    }
    this.takeover?.recovered();
  }

  /** A dead instance's running runs, once this instance claimed its lease. */
  private async takeOver(dead: Lease): Promise<void> {
    const held = (await this.held.runningRunsHeldBy(dead.instanceId)).filter((runId) => !this.handles.has(runId));
    const runIds = await this.followRemoteTasks(held);
    if (runIds.length === 0) return;
    await interruptRuns(this.repository, runIds, `${takeoverReason(dead, 'run')} (agent_run {run_id}, POST /api/runs/:id/resume)`);
    this.logger.warn({ instanceId: dead.instanceId, runs: runIds.length }, 'running runs of a dead instance taken over as interrupted');
  }

  /** Follows again the remote tasks of the remote runs among `runIds` that linked one; returns the other runs. */
  private async followRemoteTasks(runIds: readonly string[]): Promise<string[]> {
    const rest: string[] = [];
    for (const runId of runIds) {
      const state = await this.repository.load(runId);
      if (state?.status === 'running' && state.started.remote && state.remoteTask?.epoch === state.epoch) {
        this.executor.launch(state, state.started.prompt, 'resume');
        this.logger.log({ runId, taskId: state.remoteTask.taskId }, 'following the remote task of a run again');
      } else rest.push(runId);
    }
    return rest;
  }
}
