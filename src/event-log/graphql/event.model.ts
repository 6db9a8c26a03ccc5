import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { JsonScalar } from '../../graphql-api';

@ObjectType({ description: 'An event as committed to the log' })
export class StoredEventModel {
  @Field(() => Int, { description: 'Position in the whole log' }) globalPosition!: number;
  @Field(() => ID) eventId!: string;
  @Field() streamId!: string;
  @Field(() => Int, { description: 'Position in its stream, from 1' }) streamPosition!: number;
  @Field() type!: string;
  @Field(() => JsonScalar) data!: unknown;
  @Field(() => JsonScalar) metadata!: unknown;
  @Field() recordedAt!: string;
}

@ObjectType()
export class EventPage {
  @Field(() => [StoredEventModel]) events!: StoredEventModel[];
  @Field(() => Int, { description: 'Pass as `after` for the next page' }) nextAfter!: number;
}

@ObjectType({ description: 'A page of a stream read from its newest end: the events before a stream position, oldest first' })
export class StreamPageBeforeModel {
  @Field(() => [StoredEventModel]) events!: StoredEventModel[];
  @Field({ description: "Whether earlier events exist: ask again with `before` = the first event's streamPosition" }) hasEarlier!: boolean;
  @Field(() => Int, { description: "The stream's version when read: follow it live (a subscription's `after`) from there" }) version!: number;
}
