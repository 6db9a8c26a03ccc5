import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Sse, UseInterceptors } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { map, Observable, takeUntil } from 'rxjs';
import { z } from 'zod';
import {
  JsonNamingInterceptor,
  ZodValidationPipe,
  CLIENT_HEADER,
  personDecisionSource,
  ApiTraceparent,
  TRACEPARENT_HEADER,
  parseTraceparent,
  DocumentedAnswers,
} from '../common';
import { WatchStream } from '../event-log';
import { ServiceStopping } from '../lifecycle';
import { CreateSession } from './commands/create-session/create-session.command';
import { DestroySession } from './commands/destroy-session/destroy-session.command';
import { ResumeSession } from './commands/resume-session/resume-session.command';
import { SendMessage } from './commands/send-message/send-message.command';
import { StopTurn } from './commands/stop-turn/stop-turn.command';
import { SteerSession } from './commands/steer-session/steer-session.command';
import { steerSchema } from './steer-request';
import { sessionStreamId } from '../event-store';
import { GetSession } from './queries/get-session/get-session.query';
import { ListSessions } from './queries/list-sessions/list-sessions.query';
import { changeSubAgentsSchema, type CreateSessionRequest, createSessionSchema } from './session-config';
import { ChangeSubAgents } from './commands/change-sub-agents/change-sub-agents.command';
import { SESSIONS_ANSWERS } from './sessions.api-answers';

const messageSchema = z.object({ prompt: z.string().min(1, 'prompt must not be empty').max(200_000) }).strict();
const listSchema = z.object({
  status: z.enum(['starting', 'active', 'running', 'idle', 'interrupted', 'failed', 'destroyed']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  search: z.string().max(200, 'search must be at most 200 characters').optional(),
  includeRunSessions: z.enum(['true', 'false'], { message: 'includeRunSessions must be true or false' }).optional(),
});
const afterSchema = z.object({ after: z.coerce.number().int().min(0).optional() });

interface SseMessage {
  id: string;
  type: string;
  data: unknown;
}

@ApiTags('sessions')
@DocumentedAnswers(SESSIONS_ANSWERS)
@Controller('api/sessions')
export class SessionsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
    private readonly serviceStopping: ServiceStopping,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a Copilot session with tools, custom agents and a permission policy' })
  // The body is camelCase already but for the budget's limits (max_tokens… until issue 24).
  @UseInterceptors(new JsonNamingInterceptor({ legacyInput: { topLevel: false, nested: ['budget'] }, camelCaseResponse: false }))
  create(@Body(new ZodValidationPipe(createSessionSchema)) body: CreateSessionRequest) {
    return this.commandBus.execute(new CreateSession(body));
  }

  @Get()
  @ApiOperation({
    summary: 'List sessions, newest first',
    description:
      "Each with its title and a preview of its last message. `search` matches the title, the preview and the agent's id in any case. The sessions delegated runs execute on (`sub-agent-<runId>`) are left out unless `includeRunSessions=true`: each is reached from its run.",
  })
  list(@Query(new ZodValidationPipe(listSchema)) query: z.infer<typeof listSchema>) {
    const { status, search, includeRunSessions, limit } = query;
    return this.queryBus.execute(new ListSessions({ status, search, includeRunSessions: includeRunSessions === 'true' }, limit));
  }

  @Get(':id')
  @ApiOperation({ summary: 'A session with its status and its sub-agent launches' })
  get(@Param('id') id: string) {
    return this.queryBus.execute(new GetSession(id));
  }

  @Post(':id/messages')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a prompt; progress arrives on GET /api/sessions/:id/events' })
  @ApiTraceparent("the turn (session.message_sent's trace)")
  send(
    @Param('id') id: string,
    @Body(new ZodValidationPipe(messageSchema)) body: z.infer<typeof messageSchema>,
    @Headers(TRACEPARENT_HEADER) traceparent?: string,
  ) {
    return this.commandBus.execute(new SendMessage(id, body.prompt, undefined, { caller: parseTraceparent(traceparent) }));
  }

  @Patch(':id')
  @ApiOperation({ summary: "Change the session's sub-agents (stored at once; the CLI gets them at the next resume)" })
  change(@Param('id') id: string, @Body(new ZodValidationPipe(changeSubAgentsSchema)) body: { subAgents: string[] }) {
    return this.commandBus.execute(new ChangeSubAgents(id, body.subAgents));
  }

  @Post(':id/resume')
  @HttpCode(200)
  @ApiOperation({ summary: 'Resume an interrupted session on the running Copilot CLI' })
  resume(@Param('id') id: string) {
    return this.commandBus.execute(new ResumeSession(id));
  }

  @Post(':id/abort')
  @HttpCode(202)
  @ApiOperation({ summary: "Stop the session's running turn (the CLI's session.abort); the session turns idle when the CLI ends it" })
  abort(@Param('id') id: string) {
    return this.commandBus.execute(new StopTurn(id));
  }

  @Post(':id/steer')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Steer a running agent of the session: its next model request carries the message (409 when it is not running)',
    description:
      "Without `subagentId` the main agent (the CLI's session.send, mode immediate); with it, that CLI sub-agent (a launch's childSessionId, session.tasks.sendMessage). Recorded as session.steered with who sent it.",
  })
  steer(@Param('id') id: string, @Body(new ZodValidationPipe(steerSchema)) body: z.infer<typeof steerSchema>, @Headers(CLIENT_HEADER) client?: string) {
    return this.commandBus.execute(new SteerSession(id, body.message, personDecisionSource(client), { subagentId: body.subagentId }));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Destroy the session (its child mappings go with it)' })
  destroy(@Param('id') id: string) {
    return this.commandBus.execute(new DestroySession(id));
  }

  /**
   * Server-Sent Events: the session's stream from `after` (a stream position; or the Last-Event-ID
   * header on reconnect), replayed then live, each event once. The SSE `id` is the stream position.
   */
  @Sse(':id/events')
  @ApiOperation({ summary: "Server-Sent Events of the session's stream, replay from ?after= then live" })
  async events(
    @Param('id') id: string,
    @Query(new ZodValidationPipe(afterSchema)) query: z.infer<typeof afterSchema>,
    @Headers('last-event-id') lastEventId?: string,
  ): Promise<Observable<SseMessage>> {
    await this.queryBus.execute(new GetSession(id)); // 404 before the stream opens
    const resumeFrom = Number.parseInt(lastEventId ?? '', 10);
    const after = query.after ?? (Number.isFinite(resumeFrom) ? resumeFrom : 0);
    const events = await this.queryBus.execute(new WatchStream(sessionStreamId(id), after));
    return events.pipe(
      // Ends with the service, before the HTTP drain would cut it. Clients resume with Last-Event-ID.
      takeUntil(this.serviceStopping.signal),
      map((event) => ({
        id: String(event.streamPosition),
        type: event.type,
        data: { position: event.streamPosition, globalPosition: event.globalPosition, type: event.type, data: event.data, recordedAt: event.recordedAt },
      })),
    );
  }
}
