import { Command } from '@nestjs/cqrs';

/** Deletes a schedule (its firings' history is kept); `expectedVersion` (If-Match) guards against a lost update. */
export class DeleteSchedule extends Command<void> {
  constructor(
    readonly id: string,
    readonly expectedVersion?: number,
  ) {
    super();
  }
}
