import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../../config';
import { handleCommand, EventStore, scheduleStreamId } from '../../../event-store';
import { scheduleDecider } from '../../schedule.decider';
import { allTimingChecks, definitionOf, scheduleProblems } from '../../schedule-definition';
import { InvalidScheduleError } from '../../schedule.errors';
import { ScheduleReferences } from '../../schedule-references';
import type { ScheduleView } from '../../schedule-view';
import { ScheduleViews } from '../../schedule-views';
import { CreateSchedule } from './create-schedule.command';

@CommandHandler(CreateSchedule)
export class CreateScheduleHandler implements ICommandHandler<CreateSchedule, ScheduleView> {
  constructor(
    private readonly store: EventStore,
    private readonly references: ScheduleReferences,
    private readonly views: ScheduleViews,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
  ) {}

  async execute({ input }: CreateSchedule): Promise<ScheduleView> {
    const definition = definitionOf(input);
    const scheduleId = uuidv7();
    // The definition's own problems first (all of them in one 422: the decider's rule), then what it names elsewhere.
    const { minIntervalSeconds } = this.config.scheduler;
    const problems = scheduleProblems(definition, new Date(), allTimingChecks(minIntervalSeconds));
    if (problems.length > 0) throw new InvalidScheduleError(problems);
    await this.references.assertAgent(definition.agentId);
    await this.references.assertBudget(definition.budget);
    await handleCommand(
      this.store,
      scheduleDecider,
      scheduleStreamId(scheduleId),
      { type: 'create', scheduleId, definition, enabled: input.enabled, now: new Date(), minIntervalSeconds },
      { metadata: { correlationId: scheduleId } },
    );
    return this.views.schedule(scheduleId);
  }
}
