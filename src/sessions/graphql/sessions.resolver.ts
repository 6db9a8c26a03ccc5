import { Args, Context, ID, Int, Mutation, Parent, Query, ResolveField, Resolver, Subscription } from '@nestjs/graphql';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { callerTrace } from '../../common';
import { ListEventsBefore, WatchStream, StoredEventModel, StreamPageBeforeModel } from '../../event-log';
import { sessionStreamId } from '../../event-store';
import { ChangeSubAgents } from '../commands/change-sub-agents/change-sub-agents.command';
import { CreateSession } from '../commands/create-session/create-session.command';
import { DestroySession } from '../commands/destroy-session/destroy-session.command';
import { ResumeSession } from '../commands/resume-session/resume-session.command';
import { SendMessage } from '../commands/send-message/send-message.command';
import { StopTurn } from '../commands/stop-turn/stop-turn.command';
import { GetSession } from '../queries/get-session/get-session.query';
import { GetSessionOptions } from '../queries/get-session-options/get-session-options.query';
import { ListSessions } from '../queries/list-sessions/list-sessions.query';
import { changeSubAgentsSchema, createSessionSchema, type PermissionPolicy } from '../session-config';
import { apiBudgetFromInput, inRange, ListSize, validated, type GraphqlContext, nullWhenNotFound, observableToAsyncIterator } from '../../graphql-api';
import {
  CreatedSession,
  CreateSessionInput,
  MessageAccepted,
  Session,
  SessionOptionsModel,
  SessionPermissionPolicy,
  SessionSummary,
} from './session.model';
import { Field, ObjectType } from '@nestjs/graphql';

const messageSchema = z.object({ prompt: z.string().min(1, 'prompt must not be empty').max(200_000) }).strict();
const SESSIONS_LIMIT = new ListSize('limit', 1, 1000, 100);
const SEARCH_SCHEMA = z.string().max(200, 'search must be at most 200 characters').optional();
const HISTORY_LAST = new ListSize('last', 1, 500, 200);

@ObjectType()
class DestroyedSession {
  @Field(() => ID) sessionId!: string;
  @Field() status!: string;
}

@ObjectType({ description: 'A stop of the running turn, asked of the CLI; the session turns idle when the CLI ends the turn' })
class TurnStopRequested {
  @Field(() => ID) sessionId!: string;
  @Field({ description: 'stopping' }) status!: string;
}

@ObjectType()
class SessionSubAgents {
  @Field(() => ID) sessionId!: string;
  @Field(() => [String]) subAgents!: string[];
}

@Resolver(() => Session)
export class SessionsResolver {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Query(() => [SessionSummary], {
    description: "Sessions, newest first; the sessions runs execute on are left out unless asked for (each is reached from its run's threadId)",
    complexity: SESSIONS_LIMIT.complexity,
  })
  async sessions(
    @Args('status', { type: () => String, nullable: true, description: 'starting, active, running, idle, interrupted, failed or destroyed' })
    status?: string,
    @Args('limit', { type: () => Int, defaultValue: SESSIONS_LIMIT.fallback, description: SESSIONS_LIMIT.description }) limit = SESSIONS_LIMIT.fallback,
    @Args('search', { type: () => String, nullable: true, description: "Words the title, the preview or the agent's id contain, in any case" })
    search?: string | null,
    @Args('includeRunSessions', { type: () => Boolean, defaultValue: false, description: 'Also the sessions delegated runs execute on' })
    includeRunSessions = false,
  ) {
    const words = validated(SEARCH_SCHEMA, search ?? undefined);
    const filter = { status: status ?? undefined, search: words, includeRunSessions };
    const { sessions } = await this.queryBus.execute(new ListSessions(filter, SESSIONS_LIMIT.check(limit)));
    return sessions;
  }

  @Query(() => SessionOptionsModel, { description: 'What a session may be created with here: permission kinds the operator allows, budget limits' })
  sessionOptions(): Promise<SessionOptionsModel> {
    return this.queryBus.execute(new GetSessionOptions());
  }

  @Query(() => Session, { nullable: true, description: 'A session with its status and its sub-agent launches' })
  session(@Args('id', { type: () => ID }) id: string) {
    return nullWhenNotFound(this.queryBus.execute(new GetSession(id)));
  }

  @ResolveField(() => SessionPermissionPolicy)
  permissionPolicy(@Parent() session: { permissionPolicy: PermissionPolicy }): SessionPermissionPolicy {
    const { allowKinds, approveOwnTools, askKinds, askTools } = session.permissionPolicy;
    return { allowKinds, approveOwnTools, askKinds: askKinds ?? [], askTools: askTools ?? [] };
  }

  @Mutation(() => CreatedSession, { description: 'Create a Copilot session (the POST /api/sessions body)' })
  createSession(@Args('input', { type: () => CreateSessionInput, nullable: true }) input?: CreateSessionInput) {
    const { budget, ...rest } = input ?? {};
    const body = {
      ...rest,
      ...(budget ? { budget: apiBudgetFromInput(budget) } : {}),
    };
    return this.commandBus.execute(new CreateSession(validated(createSessionSchema, body)));
  }

  @Mutation(() => MessageAccepted, {
    description:
      "Send a prompt; progress arrives on the sessionEvents subscription. A W3C traceparent header on the HTTP request makes the turn a child of the caller's span",
  })
  sendMessage(
    @Args('sessionId', { type: () => ID }) sessionId: string,
    @Args('prompt', { type: () => String }) prompt: string,
    @Context() context: GraphqlContext,
  ) {
    const body = validated(messageSchema, { prompt });
    return this.commandBus.execute(new SendMessage(sessionId, body.prompt, undefined, { caller: callerTrace(context.req?.headers) }));
  }

  @Mutation(() => SessionSubAgents, { description: "Change the session's sub-agents (the CLI gets them at the next resume)" })
  changeSessionSubAgents(@Args('sessionId', { type: () => ID }) sessionId: string, @Args('subAgents', { type: () => [String] }) subAgents: string[]) {
    const body = validated(changeSubAgentsSchema, { subAgents });
    return this.commandBus.execute(new ChangeSubAgents(sessionId, body.subAgents));
  }

  @Mutation(() => CreatedSession, { description: 'Resume an interrupted session on the running Copilot CLI' })
  resumeSession(@Args('sessionId', { type: () => ID }) sessionId: string) {
    return this.commandBus.execute(new ResumeSession(sessionId));
  }

  @Mutation(() => TurnStopRequested, { description: "Stop the session's running turn (POST /api/sessions/:id/abort)" })
  abortSessionTurn(@Args('sessionId', { type: () => ID }) sessionId: string) {
    return this.commandBus.execute(new StopTurn(sessionId));
  }

  @Mutation(() => DestroyedSession)
  destroySession(@Args('sessionId', { type: () => ID }) sessionId: string) {
    return this.commandBus.execute(new DestroySession(sessionId));
  }

  /**
   * A long session is opened from its newest events: a page of them, then earlier pages as the reader
   * scrolls back, and the subscription below after the page's version for what comes next.
   */
  @Query(() => StreamPageBeforeModel, {
    description: "A page of a session's events from the newest end: the `last` before stream position `before` (default: the newest), oldest first",
    complexity: HISTORY_LAST.complexity,
  })
  async sessionHistory(
    @Args('sessionId', { type: () => ID }) sessionId: string,
    @Args('before', { type: () => Int, nullable: true, description: 'a stream position; unset: after the newest event' }) before?: number | null,
    @Args('last', { type: () => Int, defaultValue: HISTORY_LAST.fallback, description: HISTORY_LAST.description }) last = HISTORY_LAST.fallback,
  ) {
    if (before !== undefined && before !== null) inRange('before', before, 1, Number.MAX_SAFE_INTEGER);
    await this.queryBus.execute(new GetSession(sessionId)); // not_found for an unknown session
    return this.queryBus.execute(new ListEventsBefore(sessionStreamId(sessionId), HISTORY_LAST.check(last), before ?? undefined));
  }

  /**
   * The session's stream after `after` (a stream position; 0: from the start), replayed and then live:
   * every event once, in order, with no gap between the two. Resume with the last streamPosition seen.
   */
  @Subscription(() => StoredEventModel, {
    description: "A session's events after a stream position, replayed then live, each once",
    resolve: (event: StoredEventModel) => event,
  })
  async sessionEvents(@Args('sessionId', { type: () => ID }) sessionId: string, @Args('after', { type: () => Int, defaultValue: 0 }) after = 0) {
    inRange('after', after, 0, Number.MAX_SAFE_INTEGER);
    await this.queryBus.execute(new GetSession(sessionId)); // not_found before the subscription starts
    const events = await this.queryBus.execute(new WatchStream(sessionStreamId(sessionId), after));
    return observableToAsyncIterator(events);
  }
}
