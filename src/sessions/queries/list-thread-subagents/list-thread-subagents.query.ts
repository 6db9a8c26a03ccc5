import { Query } from '@nestjs/cqrs';
import type { ReadTables } from '../../../database';

export type SubagentInstanceRow = ReadTables['subagentInstances']['$inferSelect'];

/** CLI-native sub-agent launches inside each thread (a run's thread: `sub-agent-<runId>`), oldest first; in thread order. */
export class ListThreadSubagents extends Query<SubagentInstanceRow[][]> {
  constructor(readonly threadIds: readonly string[]) {
    super();
  }
}
