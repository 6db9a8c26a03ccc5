import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import { SYSTEM_ACTOR } from '../common';
import {
  foldStream,
  handleCommand,
  EventStore,
  ExpectedVersionConflictError,
  type EventMetadata,
  runStreamId,
  scheduleFiringStreamId,
} from '../event-store';
import { InstanceLease } from '../instances';
import { RunOrigin, StartRun } from '../delegation';
import { RunsReadModel } from '../run-lineage';
import type { Budget, PermissionPolicy } from '../sessions';
import { type FiringCommand, firingDecider, type FiringState, type FiringStatus } from './firing.decider';
import { dueFiringId } from './firing-id';
import { missedCountText, overlappingRun, type PlannedFiring, type PreviousFiring } from './firing-plan';
import { startRefusal } from './firing-retry';
import { SchedulesReadModel } from './schedules-read-model';
import type { FiringClaimedData, FiringTrigger, ScheduleWorkspace } from './schedule.events';
import { FiringStateError } from './schedule.errors';
import type { FiringRow, ScheduleRow } from './schedule-view';

/** The metadata of every firing event: Switchboard's own work, whoever asked. */
const SYSTEM_METADATA = { actor: 'switchboard', by: SYSTEM_ACTOR };

/** How one start attempt of a firing ended. */
export type StartOutcome = 'started' | 'retrying' | 'failed';

/**
 * Firings' writes, shared by the scheduler (due and retried firings), "run now" and the takeover of a
 * dead instance's claims. A firing's first event (claim or skip) is appended at expected version 0:
 * when another instance got there first the conflict means "theirs" and nothing happens here. A claim
 * names the run id; starting it is `StartRun` with that id, which the run decider refuses a second
 * time, so completing a claim twice (its claimer and a takeover) never starts two runs.
 */
@Injectable()
export class FiringStarter {
  private readonly logger = new Logger(FiringStarter.name);
  /** Firings this instance is starting right now: the sweep of its own unfinished claims leaves them alone. */
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly store: EventStore,
    private readonly commandBus: CommandBus,
    private readonly schedules: SchedulesReadModel,
    private readonly runs: RunsReadModel,
    private readonly lease: InstanceLease,
  ) {}

  /** One planned firing of a due schedule. Returns the firing's id when this instance recorded it, else undefined. */
  async fire(schedule: ScheduleRow, planned: PlannedFiring, now: Date): Promise<string | undefined> {
    const firingId = dueFiringId(schedule.scheduleId, planned.dueAt);
    const dueAt = planned.dueAt.toISOString();
    const base = { firingId, scheduleId: schedule.scheduleId, dueAt, instanceId: this.lease.instanceId, skippedAt: now.toISOString() };
    if (planned.kind === 'skip_missed') {
      const count = missedCountText(planned.missedCount, planned.missedCapped);
      const message = `${count} due time${count === '1' ? '' : 's'} from ${planned.firstMissedAt.toISOString()} to ${dueAt} passed while no instance was firing schedules (catch-up: skip)`;
      const skip = {
        ...base,
        trigger: (schedule.at !== null ? 'at' : 'cron') as FiringTrigger,
        reason: 'missed' as const,
        message,
        missedCount: planned.missedCount,
      };
      return (await this.first(firingId, { type: 'skip', skip })) ? firingId : undefined;
    }
    if (schedule.overlap === 'skip') {
      const previous = await this.schedules.lastStartedFiring(schedule.scheduleId);
      const runningRunId = overlappingRun('skip', previous && (await this.previousFiring(previous)));
      if (runningRunId) {
        const message = `the previous firing's run ${runningRunId} was still running (overlap: skip)`;
        const skip = { ...base, trigger: planned.trigger, reason: 'overlap' as const, message, runningRunId, missedCount: 0 };
        return (await this.first(firingId, { type: 'skip', skip })) ? firingId : undefined;
      }
    }
    const claimed = await this.claim(schedule, firingId, dueAt, planned.trigger, planned.missedCount, now);
    if (!claimed) return undefined;
    await this.start(claimed, schedule, now);
    return firingId;
  }

  /** "Run now": a manual firing (fresh id) claimed and started at once, enabled or not, overlapping or not. */
  async fireNow(schedule: ScheduleRow, now: Date): Promise<string> {
    const firingId = uuidv7();
    const claimed = await this.claim(schedule, firingId, now.toISOString(), 'manual', 0, now);
    // A fresh uuid v7 stream: nobody else can have claimed it.
    if (!claimed) throw new FiringStateError(firingId, 'claimed elsewhere', 'claimed');
    await this.start(claimed, schedule, now);
    return firingId;
  }

  /** A firing whose start was refused for a temporary cause, once its retry is due: claimed again and started (or failed). */
  async retry(firing: FiringRow, now: Date): Promise<StartOutcome | undefined> {
    const streamId = scheduleFiringStreamId(firing.firingId);
    const schedule = await this.schedules.get(firing.scheduleId);
    if (!schedule || (!schedule.enabled && firing.trigger !== 'manual')) {
      return this.failDisabled(streamId, `the schedule was ${schedule ? 'disabled' : 'deleted'} before the retry was due`, now);
    }
    const claim: Omit<FiringClaimedData, 'attempt'> = {
      firingId: firing.firingId,
      scheduleId: firing.scheduleId,
      dueAt: firing.dueAt,
      trigger: firing.trigger as FiringTrigger,
      runId: uuidv7(),
      instanceId: this.lease.instanceId,
      firedAt: now.toISOString(),
      missedCount: firing.missedCount,
    };
    const state = await this.decide(streamId, { type: 'claim', claim, now: now.getTime() }).catch((error: unknown) => this.ignoreTaken(error));
    if (!state?.claim) return undefined;
    return this.start(state.claim, schedule, now);
  }

  /**
   * A claim whose claimer died (or whose start this instance did not finish): its run stream there →
   * recorded started; else started now with the claim's run id (the run decider refuses a second one).
   */
  async complete(firing: FiringRow, now: Date): Promise<StartOutcome | undefined> {
    const streamId = scheduleFiringStreamId(firing.firingId);
    const { state } = await foldStream(this.store, firingDecider, streamId);
    if (state.status !== 'starting' || !state.claim) return undefined;
    const claim = state.claim;
    if ((await this.store.streamVersion(runStreamId(claim.runId))) > 0) return this.recordStarted(claim, now);
    const schedule = await this.schedules.get(claim.scheduleId);
    if (!schedule) return this.failDisabled(streamId, 'the schedule was deleted before its run started', now);
    return this.start(claim, schedule, now);
  }

  /** A firing whose schedule is off or gone: failed for good (`schedule_disabled`), unless another instance recorded it first. */
  private async failDisabled(streamId: string, message: string, now: Date): Promise<StartOutcome> {
    const failure = { code: 'schedule_disabled', message, retryAt: null, failedAt: now.toISOString() };
    await this.decide(streamId, { type: 'fail', failure }).catch((error: unknown) => this.ignoreTaken(error));
    return 'failed';
  }

  /** Claims a firing: its first event at version 0. undefined: another instance recorded it first. */
  private async claim(schedule: ScheduleRow, firingId: string, dueAt: string, trigger: FiringTrigger, missedCount: number, now: Date) {
    // "Run now" records who asked (the request's actor); every other firing is Switchboard's.
    const metadata = trigger === 'manual' ? { actor: 'api' } : SYSTEM_METADATA;
    const claim: Omit<FiringClaimedData, 'attempt'> = {
      firingId,
      scheduleId: schedule.scheduleId,
      dueAt,
      trigger,
      runId: uuidv7(),
      instanceId: this.lease.instanceId,
      firedAt: now.toISOString(),
      missedCount,
    };
    const state = await this.first(firingId, { type: 'claim', claim, now: now.getTime() }, metadata);
    return state?.claim;
  }

  /** Whether this instance is starting the firing's run now. */
  starting(firingId: string): boolean {
    return this.inFlight.has(firingId);
  }

  /** Starts the claimed run; records started, or failed / retrying per the retry rule. */
  private async start(claim: FiringClaimedData, schedule: ScheduleRow, now: Date): Promise<StartOutcome> {
    this.inFlight.add(claim.firingId);
    try {
      return await this.startRun(claim, schedule, now);
    } finally {
      this.inFlight.delete(claim.firingId);
    }
  }

  private async startRun(claim: FiringClaimedData, schedule: ScheduleRow, now: Date): Promise<StartOutcome> {
    const { scheduleId, firingId, runId } = claim;
    try {
      await this.commandBus.execute(
        new StartRun(
          {
            agentId: schedule.agentId,
            prompt: schedule.prompt,
            background: true,
            ...(schedule.budget ? { budget: JSON.parse(schedule.budget) as Budget } : {}),
            ...(schedule.workspace ? { workspace: JSON.parse(schedule.workspace) as ScheduleWorkspace } : {}),
          },
          { kind: 'api', actor: `schedule:${scheduleId}` },
          RunOrigin.scheduled({
            newRunId: runId,
            schedule: { scheduleId, firingId },
            session: {
              ...(schedule.model ? { model: schedule.model } : {}),
              ...(schedule.permissionPolicy ? { permissionPolicy: JSON.parse(schedule.permissionPolicy) as PermissionPolicy } : {}),
            },
          }),
        ),
      );
    } catch (error) {
      // Refused because it already exists: an earlier attempt at this claim started it.
      if ((await this.store.streamVersion(runStreamId(runId)).catch(() => 0)) > 0) return this.recordStarted(claim, now);
      const refusal = startRefusal(error, claim.attempt, now);
      this.logger.warn(
        { scheduleId, firingId, runId, attempt: claim.attempt, code: refusal.code, retryAt: refusal.retryAt, err: error },
        'scheduled run not started',
      );
      await this.decide(scheduleFiringStreamId(firingId), { type: 'fail', failure: { ...refusal, failedAt: now.toISOString() } }).catch(
        (failure: unknown) => this.ignoreTaken(failure),
      );
      return refusal.retryAt ? 'retrying' : 'failed';
    }
    this.logger.log({ scheduleId, firingId, runId, trigger: claim.trigger, dueAt: claim.dueAt }, 'schedule fired');
    return this.recordStarted(claim, now);
  }

  private async recordStarted(claim: FiringClaimedData, now: Date): Promise<StartOutcome> {
    await this.decide(scheduleFiringStreamId(claim.firingId), { type: 'start', startedAt: now.toISOString() });
    return 'started';
  }

  /** A firing's first event at version 0; undefined when the stream already had one (another instance's). */
  private async first(firingId: string, command: FiringCommand, metadata: EventMetadata = SYSTEM_METADATA): Promise<FiringState | undefined> {
    const { state } = await handleCommand(this.store, firingDecider, scheduleFiringStreamId(firingId), command, {
      expectedVersion: 0,
      metadata,
    }).catch((error: unknown) => ({ state: this.ignoreTaken(error) }));
    return state;
  }

  private async decide(streamId: string, command: FiringCommand): Promise<FiringState> {
    return (await handleCommand(this.store, firingDecider, streamId, command, { metadata: SYSTEM_METADATA })).state;
  }

  /** Another instance wrote the firing first (a version conflict, or the decider seeing its event): not an error here. */
  private ignoreTaken(error: unknown): undefined {
    if (error instanceof ExpectedVersionConflictError || error instanceof FiringStateError) return undefined;
    throw error;
  }

  private async previousFiring(row: FiringRow): Promise<PreviousFiring> {
    const run = row.runId && row.status === 'started' ? await this.runs.find(row.runId) : undefined;
    return { status: row.status as FiringStatus, runId: row.runId, runStatus: run?.status ?? null };
  }
}
