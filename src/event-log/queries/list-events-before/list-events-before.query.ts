import { Query } from '@nestjs/cqrs';
import type { StoredEvent } from '../../../event-store';

export interface StreamPageBefore {
  /** Oldest first: the `last` events before `before` (the newest ones without it). */
  events: StoredEvent[];
  /** Whether the stream has events before the first one here: ask again with `before` = its stream position. */
  hasEarlier: boolean;
  /** The stream's version when read: a reader of the newest page follows the stream live after it. */
  version: number;
}

/**
 * A stream read backwards, a page at a time (keyset on the stream position): what a long history is
 * opened with, from its newest events, without reading the rest.
 */
export class ListEventsBefore extends Query<StreamPageBefore> {
  constructor(
    readonly streamId: string,
    readonly last: number,
    /** A stream position; undefined: after the stream's newest event. */
    readonly before?: number,
  ) {
    super();
  }
}
