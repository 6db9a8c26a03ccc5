import { Controller, Delete, Get, Param, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PRINCIPAL_PROPERTY, type Principal } from '../principal';
import { RevokeSignInSession } from './commands/revoke-sign-in-session/revoke-sign-in-session.command';
import { ListSignInSessions } from './queries/list-sign-in-sessions/list-sign-in-sessions.query';
import { DocumentedAnswers } from '../../common';
import { SIGN_IN_SESSIONS_ANSWERS } from './sign-in-sessions.api-answers';

type Authenticated = { [PRINCIPAL_PROPERTY]: Principal };

/** issue 27: an admin sees who is signed in to the console and can end a person's session at once. */
@ApiTags('identity')
@DocumentedAnswers(SIGN_IN_SESSIONS_ANSWERS)
@Controller('api/sign-in-sessions')
export class SignInSessionsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: "People's sign-in sessions, newest first: who, role, started, expires, revoked (never the cookie)" })
  async list() {
    return { sessions: await this.queryBus.execute(new ListSignInSessions()) };
  }

  @Delete(':id')
  @ApiOperation({
    summary:
      'Revoke a sign-in session: its cookie is refused (401, sign in again) from the next request on, on every instance; 404 unknown, 409 ended already',
  })
  revoke(@Param('id') id: string, @Req() request: Authenticated) {
    return this.commandBus.execute(new RevokeSignInSession(id, request[PRINCIPAL_PROPERTY]));
  }
}
