import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';
import { ActorModel } from '../../graphql-api';

@ObjectType({ description: 'issue 26: a pause over a run or a session: its steps wait until it is unpaused' })
export class PauseModel {
  @Field({ description: 'When it was paused (ISO 8601)' }) since!: string;
  @Field({ description: 'Where it was paused from: console or api' }) by!: string;
  @Field(() => ActorModel, { description: 'Who paused it: a person, a key, an agent' }) actor!: ActorModel;
  @Field({ description: 'What was paused: run (this run or an ancestor) or session (the session itself, or the one that started the tree)' })
  target!: string;
  @Field(() => ID, { nullable: true, description: 'The paused run (target run)' }) runId!: string | null;
  @Field(() => ID, { nullable: true, description: 'The paused session (target session)' }) sessionId!: string | null;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => Int, { description: 'Steps waiting under it now: model calls, tool calls, permission requests, hooks, user input' }) held!: number;
}

@ObjectType({ description: 'A pause just recorded' })
export class PauseResultModel {
  @Field() target!: string;
  @Field(() => ID) id!: string;
  @Field(() => PauseModel) pause!: PauseModel;
}

@ObjectType({ description: 'An unpause just recorded: what waited goes on in the order it came' })
export class UnpauseResultModel {
  @Field() target!: string;
  @Field(() => ID) id!: string;
  @Field(() => Float, { description: 'How long it was paused' }) pausedMs!: number;
  @Field(() => Int, { description: 'Steps that were waiting under it (this instance)' }) released!: number;
}
