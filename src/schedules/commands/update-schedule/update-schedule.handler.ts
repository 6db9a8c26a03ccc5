import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../../config';
import { handleCommand, EventStore, scheduleStreamId } from '../../../event-store';
import { toBudget } from '../../../sessions';
import { scheduleDecider } from '../../schedule.decider';
import { ScheduleReferences } from '../../schedule-references';
import type { ScheduleView } from '../../schedule-view';
import { ScheduleViews } from '../../schedule-views';
import { UpdateSchedule } from './update-schedule.command';

/**
 * PATCH: the decider applies the changes to the definition as it is when it decides (a retry after a
 * concurrent change applies them again to the newer one), so only the given fields change. A changed
 * agent or budget is checked first; the rest of the definition is the decider's to refuse.
 */
@CommandHandler(UpdateSchedule)
export class UpdateScheduleHandler implements ICommandHandler<UpdateSchedule, ScheduleView> {
  constructor(
    private readonly store: EventStore,
    private readonly references: ScheduleReferences,
    private readonly views: ScheduleViews,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
  ) {}

  async execute({ id, changes, expectedVersion }: UpdateSchedule): Promise<ScheduleView> {
    if (changes.agentId !== undefined) await this.references.assertAgent(changes.agentId);
    if (changes.budget) await this.references.assertBudget(toBudget(changes.budget) ?? null);
    await handleCommand(
      this.store,
      scheduleDecider,
      scheduleStreamId(id),
      { type: 'update', scheduleId: id, changes, now: new Date(), minIntervalSeconds: this.config.scheduler.minIntervalSeconds },
      { metadata: { correlationId: id }, expectedVersion },
    );
    return this.views.schedule(id);
  }
}
