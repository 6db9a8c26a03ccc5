import { Query } from '@nestjs/cqrs';
import type { ScheduleTiming } from '../../schedule.events';

export interface SchedulePreview {
  /** The next PREVIEW_FIRINGS due times from now (ISO); [] when there are problems or nothing is due any more. */
  nextFirings: string[];
  /** What is wrong with the timing; [] when it can be saved. */
  problems: string[];
}

/** When a timing would fire, for an editor before save: never refused for a bad timing (it answers the problems). */
export class PreviewSchedule extends Query<SchedulePreview> {
  constructor(readonly timing: ScheduleTiming) {
    super();
  }
}
