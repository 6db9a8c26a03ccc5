import { HttpStatus } from '@nestjs/common';
import { DomainError } from '../common';

/** No schedule with this id, or it was deleted. HTTP 404. */
export class ScheduleNotFoundError extends DomainError {
  static override readonly httpStatus = HttpStatus.NOT_FOUND;
  readonly code = 'schedule_not_found';

  constructor(scheduleId: string) {
    super(`Schedule ${scheduleId} does not exist (or was deleted); list the schedules with GET /api/schedules`, { scheduleId });
  }
}

/** A schedule that cannot be kept as given: every problem named, so an editor shows them all at once. HTTP 422. */
export class InvalidScheduleError extends DomainError {
  readonly code = 'invalid_schedule';

  constructor(readonly problems: string[]) {
    super(`The schedule cannot be saved: ${problems.join('; ')}`, { problems });
  }
}

/** A firing command its stream's state refuses (claimed twice, started before claimed). HTTP 409. */
export class FiringStateError extends DomainError {
  readonly code = 'invalid_state';

  constructor(firingId: string, status: string, wanted: string) {
    super(`Firing ${firingId} is ${status}; it cannot be ${wanted}`, { firingId, status, wanted });
  }
}

/** A create on a stream that already has a schedule (ids are chosen fresh, so a replayed create). HTTP 409. */
export class ScheduleExistsError extends DomainError {
  readonly code = 'invalid_state';

  constructor(scheduleId: string) {
    super(`Schedule ${scheduleId} already exists; change it with PATCH /api/schedules/${scheduleId}`, { scheduleId });
  }
}
