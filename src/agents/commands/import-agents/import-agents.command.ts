import { Command } from '@nestjs/cqrs';
import type { AgentFile } from '../../agent-files';

export interface ImportAgentsResult {
  created: string[];
  updated: string[];
  unchanged: string[];
}

/** A folder's agent files, imported all together or not at all. */
export class ImportAgents extends Command<ImportAgentsResult> {
  constructor(
    readonly files: AgentFile[],
    readonly actor?: string,
  ) {
    super();
  }
}
