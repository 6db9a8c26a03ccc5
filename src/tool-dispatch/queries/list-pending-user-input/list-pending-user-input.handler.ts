import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { GetSession } from '../../../sessions';
import { type PendingUserInput, UserInputBroker } from '../../user-input-broker';
import { ListPendingUserInput } from './list-pending-user-input.query';

@QueryHandler(ListPendingUserInput)
export class ListPendingUserInputHandler implements IQueryHandler<ListPendingUserInput, PendingUserInput[]> {
  constructor(
    private readonly broker: UserInputBroker,
    private readonly queryBus: QueryBus,
  ) {}

  async execute({ sessionId }: ListPendingUserInput): Promise<PendingUserInput[]> {
    await this.queryBus.execute(new GetSession(sessionId));
    return this.broker.pendingFor(sessionId);
  }
}
