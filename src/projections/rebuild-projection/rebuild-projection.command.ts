import { Command } from '@nestjs/cqrs';

export interface RebuildProgress {
  applied: number;
  total: number;
}

export interface RebuildProjectionResult {
  projection: string;
  eventsApplied: number;
  position: number;
}

/** Empties a projection's read model and replays the whole log into it. */
export class RebuildProjection extends Command<RebuildProjectionResult> {
  constructor(
    readonly projectionName: string,
    readonly onProgress?: (progress: RebuildProgress) => void,
  ) {
    super();
  }
}
