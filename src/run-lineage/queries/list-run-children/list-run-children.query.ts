import { Query } from '@nestjs/cqrs';
import type { RunRow } from '../../run-lineage';

/** The first `limit` children of each parent run, oldest first; one array per parent, in parent order. */
export class ListRunChildren extends Query<RunRow[][]> {
  constructor(
    readonly parentRunIds: readonly string[],
    readonly limit: number,
  ) {
    super();
  }
}
