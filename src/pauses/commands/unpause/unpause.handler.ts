import { currentActor } from '../../../common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore, handleCommand, pauseStreamId } from '../../../event-store';
import { pauseDecider } from '../../pause.decider';
import { PauseEvents } from '../../pause.events';
import { PauseHolds } from '../../pause-holds';
import { type UnpauseResult, UnpauseWork } from './unpause.command';

@CommandHandler(UnpauseWork)
export class UnpauseHandler implements ICommandHandler<UnpauseWork, UnpauseResult> {
  constructor(
    private readonly store: EventStore,
    private readonly holds: PauseHolds,
  ) {}

  async execute({ target, id, unpausedBy }: UnpauseWork): Promise<UnpauseResult> {
    const streamId = pauseStreamId(target, id);
    const released = this.holds.openPauseOf(target, id)?.held ?? 0;
    const { events } = await handleCommand(
      this.store,
      pauseDecider,
      streamId,
      { type: 'unpause', target, id, unpausedBy, now: Date.now() },
      { metadata: { actor: unpausedBy } },
    );
    for (const event of events) this.holds.applied({ ...event, streamId, metadata: { by: currentActor() } });
    const unpaused = events.find((event) => event.type === PauseEvents.unpaused);
    return { target, id, pausedMs: unpaused?.type === PauseEvents.unpaused ? unpaused.data.pausedMs : 0, released };
  }
}
