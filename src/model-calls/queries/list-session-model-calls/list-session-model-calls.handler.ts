import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SessionNotFoundError, SessionsReadModel } from '../../../sessions';
import { decodeModelCallCursor, type ModelCallPage, modelCallPageOf } from '../../model-call-view';
import { ModelCallsReadModel } from '../../model-calls-read-model';
import { ListSessionModelCalls } from './list-session-model-calls.query';

@QueryHandler(ListSessionModelCalls)
export class ListSessionModelCallsHandler implements IQueryHandler<ListSessionModelCalls, ModelCallPage> {
  constructor(
    private readonly calls: ModelCallsReadModel,
    private readonly sessions: SessionsReadModel,
  ) {}

  async execute({ sessionId, limit, after }: ListSessionModelCalls): Promise<ModelCallPage> {
    const cursor = after === undefined ? undefined : decodeModelCallCursor(after);
    const [session, rows] = await Promise.all([this.sessions.find(sessionId), this.calls.ofSession(sessionId, cursor, limit + 1)]);
    if (!session) throw new SessionNotFoundError(sessionId);
    return modelCallPageOf(rows, limit);
  }
}
