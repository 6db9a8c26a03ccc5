import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { GetSessionOptions } from './queries/get-session-options/get-session-options.query';
import { DocumentedAnswers } from '../common';
import { SESSION_OPTIONS_ANSWERS } from './session-options.api-answers';

/** Read-only: what this service lets a session's settings hold, so a console offers only what it would accept. */
@ApiTags('sessions')
@DocumentedAnswers(SESSION_OPTIONS_ANSWERS)
@Controller('api/session-options')
export class SessionOptionsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: "The operator's switches for session settings: permission kinds a policy may allow or ask (and what opens the others), budget limits",
  })
  get() {
    return this.queryBus.execute(new GetSessionOptions());
  }
}
