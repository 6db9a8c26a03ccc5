import { Args, Field, ID, Mutation, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { validated } from '../../graphql-api';
import { AnswerUserInput, userInputAnswerSchema } from '../commands/answer-user-input/answer-user-input.command';
import { ListPendingUserInput } from '../queries/list-pending-user-input/list-pending-user-input.query';

@ObjectType({ description: 'A question an agent of the session is waiting to have answered' })
class PendingUserInput {
  @Field(() => ID) requestId!: string;
  @Field(() => ID) sessionId!: string;
  @Field(() => String, { nullable: true }) childSessionId?: string;
  @Field(() => String, { nullable: true }) agentName?: string;
  @Field() question!: string;
  @Field(() => [String]) choices!: string[];
  @Field() allowFreeform!: boolean;
  @Field() askedAt!: string;
}

@ObjectType()
class UserInputAnswered {
  @Field(() => ID) requestId!: string;
  @Field() answered!: boolean;
}

/** The questions agents of a session ask (ask_user), and their answers. */
@Resolver()
export class UserInputResolver {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Query(() => [PendingUserInput], { description: 'Questions agents of the session are waiting on (GET /api/sessions/:id/user-input)' })
  pendingUserInput(@Args('sessionId', { type: () => ID }) sessionId: string) {
    return this.queryBus.execute(new ListPendingUserInput(sessionId));
  }

  @Mutation(() => UserInputAnswered, { description: 'Answer a pending question (POST /api/sessions/:id/user-input/:requestId)' })
  answerUserInput(
    @Args('sessionId', { type: () => ID }) sessionId: string,
    @Args('requestId', { type: () => ID }) requestId: string,
    @Args('answer', { type: () => String }) answer: string,
    @Args('wasFreeform', { type: () => Boolean, nullable: true }) wasFreeform?: boolean,
  ) {
    const body = validated(userInputAnswerSchema, { answer, wasFreeform: wasFreeform ?? undefined });
    return this.commandBus.execute(new AnswerUserInput(sessionId, requestId, body));
  }
}
