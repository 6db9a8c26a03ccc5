import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CLIENT_HEADER, personDecisionSource } from '../approvals';
import { ZodValidationPipe, DocumentedAnswers } from '../common';
import { PauseWork, pauseSchema } from './commands/pause/pause.command';
import { UnpauseWork } from './commands/unpause/unpause.command';
import { PauseHolds, type PauseView } from './pause-holds';
import { PAUSES_ANSWERS } from './pauses.api-answers';

/**
 * issue 26: pause and unpause a run's subtree or a session over REST (`resume` already means resuming an
 * interrupted run). The actor is the client (`X-Switchboard-Client: console`, else `api`).
 */
@ApiTags('pauses')
@DocumentedAnswers(PAUSES_ANSWERS)
@Controller('api')
export class PausesController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly holds: PauseHolds,
  ) {}

  @Get('sessions/:id/pause')
  @ApiOperation({ summary: 'The pause over a session (its own, or for a run’s session, over that run), with what it holds now; null when none' })
  async sessionPause(@Param('id') id: string): Promise<{ pause: PauseView | null }> {
    return { pause: (await this.holds.pauseOverSession(id)) ?? null };
  }

  @Post('runs/:id/pause')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Hold the run and its whole subtree at the next step (model calls, tool calls, permissions, hooks, user input); a running tool finishes. 404 unknown, 409 not running or already paused',
  })
  pauseRun(@Param('id') id: string, @Body(new ZodValidationPipe(pauseSchema)) body: z.infer<typeof pauseSchema>, @Headers(CLIENT_HEADER) client?: string) {
    return this.commandBus.execute(new PauseWork('run', id, personDecisionSource(client), body.reason));
  }

  @Post('runs/:id/unpause')
  @HttpCode(200)
  @ApiOperation({ summary: 'Release a paused run: what waited goes on in the order it came. 409 not paused' })
  unpauseRun(@Param('id') id: string, @Headers(CLIENT_HEADER) client?: string) {
    return this.commandBus.execute(new UnpauseWork('run', id, personDecisionSource(client)));
  }

  @Post('sessions/:id/pause')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Hold a session: its main agent, its CLI sub-agents and every run it started, at their next step. 404 unknown, 409 ended or already paused',
  })
  pauseSession(
    @Param('id') id: string,
    @Body(new ZodValidationPipe(pauseSchema)) body: z.infer<typeof pauseSchema>,
    @Headers(CLIENT_HEADER) client?: string,
  ) {
    return this.commandBus.execute(new PauseWork('session', id, personDecisionSource(client), body.reason));
  }

  @Post('sessions/:id/unpause')
  @HttpCode(200)
  @ApiOperation({ summary: 'Release a paused session: what waited goes on in the order it came. 409 not paused' })
  unpauseSession(@Param('id') id: string, @Headers(CLIENT_HEADER) client?: string) {
    return this.commandBus.execute(new UnpauseWork('session', id, personDecisionSource(client)));
  }
}
