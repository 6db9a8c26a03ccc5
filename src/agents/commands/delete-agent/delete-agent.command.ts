import { Command } from '@nestjs/cqrs';

export class DeleteAgent extends Command<{ id: string; deleted: true }> {
  constructor(
    readonly id: string,
    readonly expectedVersion?: number,
    readonly actor?: string,
  ) {
    super();
  }
}
