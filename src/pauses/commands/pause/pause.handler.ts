import { currentActor } from '../../../common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import { EventStore, handleCommand, pauseStreamId, runThreadId } from '../../../event-store';
import { RunsReadModel } from '../../../run-lineage';
import { SessionsReadModel } from '../../../sessions';
import { pauseDecider } from '../../pause.decider';
import { PauseStateError, PauseTargetNotFoundError } from '../../pause.errors';
import type { PausedData } from '../../pause.events';
import { PauseHolds } from '../../pause-holds';
import { type PauseResult, PauseWork } from './pause.command';

/** A session in these states has nothing left to hold. */
const ENDED_SESSION = new Set(['interrupted', 'failed', 'destroyed']);

@CommandHandler(PauseWork)
export class PauseHandler implements ICommandHandler<PauseWork, PauseResult> {
  constructor(
    private readonly store: EventStore,
    private readonly holds: PauseHolds,
    private readonly runs: RunsReadModel,
    private readonly sessions: SessionsReadModel,
  ) {}

  async execute({ target, id, pausedBy, reason }: PauseWork): Promise<PauseResult> {
    const pause: Omit<PausedData, 'pausedAt'> = { pauseId: uuidv7(), target, pausedBy, ...(reason ? { reason } : {}) };
    if (target === 'run') {
      const run = await this.runs.find(id);
      if (!run) throw new PauseTargetNotFoundError(target, id);
      if (run.status !== 'running') throw PauseStateError.notRunning(target, id, run.status);
      Object.assign(pause, { runId: id, sessionId: runThreadId(id), runPath: run.path });
    } else {
      const session = await this.sessions.find(id);
      if (!session) throw new PauseTargetNotFoundError(target, id);
      if (ENDED_SESSION.has(session.status)) throw PauseStateError.notRunning(target, id, session.status);
      pause.sessionId = id;
    }
    const streamId = pauseStreamId(target, id);
    const { events } = await handleCommand(
      this.store,
      pauseDecider,
      streamId,
      { type: 'pause', pause, now: Date.now() },
      { metadata: { actor: pausedBy } },
    );
    // Held from the answer on: the holds take it now, not when committed$ brings it.
    for (const event of events) this.holds.applied({ ...event, streamId, metadata: { by: currentActor() } });
    const view = this.holds.openPauseOf(target, id);
    if (!view) throw PauseStateError.notPaused(target, id);
    return { target, id, pause: view };
  }
}
