import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { SignInSessions, type SignInSessionView } from '../../sign-in-sessions';

export class ListSignInSessions extends Query<SignInSessionView[]> {}

@QueryHandler(ListSignInSessions)
export class ListSignInSessionsHandler implements IQueryHandler<ListSignInSessions, SignInSessionView[]> {
  constructor(private readonly sessions: SignInSessions) {}

  execute(): Promise<SignInSessionView[]> {
    return this.sessions.list();
  }
}
