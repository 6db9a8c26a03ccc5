import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { handleCommand, EventStore, scheduleStreamId } from '../../../event-store';
import { scheduleDecider } from '../../schedule.decider';
import { DeleteSchedule } from './delete-schedule.command';

/** No due time fires after the commit: the projection removes the row the scheduler reads. The firings stay listed. */
@CommandHandler(DeleteSchedule)
export class DeleteScheduleHandler implements ICommandHandler<DeleteSchedule, void> {
  constructor(private readonly store: EventStore) {}

  async execute({ id, expectedVersion }: DeleteSchedule): Promise<void> {
    await handleCommand(
      this.store,
      scheduleDecider,
      scheduleStreamId(id),
      { type: 'delete', scheduleId: id },
      { metadata: { correlationId: id }, expectedVersion },
    );
  }
}
