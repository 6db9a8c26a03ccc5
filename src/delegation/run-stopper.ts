import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Subscription } from 'rxjs';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { CopilotCliConnection } from '../copilot-cli';
import { RunsReadModel } from '../run-lineage';
import { AbortSession, DestroySession, SessionRegistry } from '../sessions';
import { RunStateError } from './run.errors';
import type { StoppedBy } from './run.events';
import { RunExecutor } from './run-executor';
import { RunHandleTable } from './run-handle-table';
import { RunRepository } from './run-repository';
import { RemoteRunLauncher } from './remote-runs/remote-run-launcher';

/** How many times the subtree is swept: a child may start a grandchild while the first sweep is on. */
const MAX_SWEEPS = 5;

/**
 * spec: agent_stop cancels a run and every descendant (grandchildren and background ones included).
 * The subtree comes from the lineage path, deepest first; each run records who stopped it. Also stops
 * a run's subtree when the run outlives its policy's timeout.
 */
@Injectable()
export class RunStopper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RunStopper.name);
  private subscription?: Subscription;

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly commandBus: CommandBus,
    private readonly executor: RunExecutor,
    private readonly handles: RunHandleTable,
    private readonly repository: RunRepository,
    private readonly runs: RunsReadModel,
    private readonly sessions: SessionRegistry,
    private readonly cliConnection: CopilotCliConnection,
    private readonly remoteRuns: RemoteRunLauncher,
  ) {}

  onModuleInit(): void {
    this.subscription = this.executor.timeouts$.subscribe(({ runId, epoch, timeoutMs }) => {
      void this.stopTimedOut(runId, epoch, timeoutMs).catch((error: unknown) =>
        this.logger.error({ runId, err: error }, 'could not stop a run that timed out'),
      );
    });
  }

  private async stopTimedOut(runId: string, epoch: number, timeoutMs: number): Promise<void> {
    const state = await this.repository.load(runId);
    if (!state || state.status !== 'running' || state.epoch !== epoch) return;
    await this.stopTree(runId, { actor: 'switchboard', reason: `timed out after ${timeoutMs} ms (run policy timeout)` });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  /**
   * Stops the run and its running descendants; returns the ids of the runs stopped. `endingTurns`: sessions
   * whose turn is ending by itself (a refused model call): they are given the grace period to end it, so the
   * CLI records why, and are aborted only when they did not.
   */
  async stopTree(runId: string, stoppedBy: StoppedBy, endingTurns: ReadonlySet<string> = new Set()): Promise<string[]> {
    const target = await this.repository.get(runId);
    if (target.status !== 'running') {
      throw new RunStateError(`Run ${runId} is ${target.status}; there is nothing to stop`);
    }
    const stopped: string[] = [];
    for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
      const running = await this.runs.runningSubtreeIds(target.started.path);
      if (running.length === 0) break;
      const results = await Promise.all(
        running.map((id) => this.stopOne(id, id === runId ? stoppedBy : { ...stoppedBy, cascadeFrom: runId }, endingTurns)),
      );
      running.forEach((id, i) => results[i] && stopped.push(id));
    }
    this.logger.log({ runId, stopped: stopped.length, actor: stoppedBy.actor }, 'run subtree stopped');
    return stopped;
  }

  /**
   * Stops one run: cancels its handle, asks the CLI to abort the turn, waits the grace period for the
   * turn to end, destroys the session when it did not (forced), and records who stopped it.
   * Returns false when the run was no longer running.
   */
  private async stopOne(runId: string, stoppedBy: StoppedBy, endingTurns: ReadonlySet<string>): Promise<boolean> {
    const state = await this.repository.load(runId);
    if (!state || state.status !== 'running') return false;
    const handle = this.handles.get(runId);
    handle?.cancel(stoppedBy.reason);
    // issue 43: a remote agent's run is stopped on its service too, whichever instance follows its task.
    if (state.started.remote) await this.remoteRuns.cancel(state);
    const sessionId = state.started.threadId;
    const session = this.sessions.get(sessionId);
    const graceMs = this.config.runs.stopGraceMs;
    let forced = false;
    if (session && session.status === 'running' && session.cliGeneration === this.cliConnection.generation && this.cliConnection.isRunning) {
      const endedByItself = endingTurns.has(sessionId) && (await this.turnEndedByItself(sessionId, graceMs));
      const turnEnded = endedByItself ? Promise.resolve(true) : this.executor.turnEnd(sessionId, graceMs);
      if (!endedByItself) {
        await this.commandBus
          .execute(new AbortSession(sessionId, graceMs))
          .catch((error: unknown) => this.logger.warn({ runId, err: error }, 'session.abort failed'));
      }
      if (!(await turnEnded)) {
        forced = true;
        await this.commandBus
          .execute(new DestroySession(sessionId, `run-stop:${runId}`, `run ${runId} did not stop within ${graceMs} ms of session.abort: forced stop`))
          .catch((error: unknown) => this.logger.warn({ runId, err: error }, 'could not destroy the session of a run that ignored abort'));
      }
    }
    try {
      await this.repository.decide(runId, { type: 'stop', stoppedBy, forced }, { actor: stoppedBy.actor });
      this.logger.log({ runId, stoppedBy, forced }, 'run stopped');
    } catch (error) {
      if (!(error instanceof RunStateError)) throw error;
      // It ended on its own while the abort was on its way: its own outcome stands.
    } finally {
      if (handle) this.handles.close(handle);
    }
    return true;
  }

  /** A turn ending by itself ended within the grace period (or had already ended when we looked). */
  private async turnEndedByItself(sessionId: string, graceMs: number): Promise<boolean> {
    const ended = await this.executor.turnEnd(sessionId, graceMs);
    return ended || this.sessions.get(sessionId)?.status !== 'running';
  }
}
