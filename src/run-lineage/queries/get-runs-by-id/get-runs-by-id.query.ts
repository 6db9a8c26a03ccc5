import { Query } from '@nestjs/cqrs';
import type { RunRow } from '../../run-lineage';

/** Runs by id, in one statement; unknown ids are left out. */
export class GetRunsById extends Query<RunRow[]> {
  constructor(readonly runIds: readonly string[]) {
    super();
  }
}
