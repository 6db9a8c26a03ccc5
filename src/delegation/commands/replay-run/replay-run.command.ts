import { Command } from '@nestjs/cqrs';
import type { TraceParent } from '../../../common';
import type { RunSummary } from '../../run-caller';

export interface ReplayRunInput {
  /** At the first call whose request differs from the original's: stop the replay tree, or go on live with the model. */
  onDivergence: 'stop' | 'live';
  /** Let the CLI's built-in tools with side effects (shell, write, url, mcp) run; denied by default. */
  allowSideEffects: boolean;
  /** false: answer once the replay ended. */
  background: boolean;
}

/** The new run's summary and the run it replays. */
export type ReplayStarted = RunSummary & { replay_of: string };

/** issue 26: play an ended run back as a new root run answered from its record (`run.started.replay`). */
export class ReplayRun extends Command<ReplayStarted> {
  constructor(
    readonly runId: string,
    readonly input: ReplayRunInput,
    /** `console` or `api`: who asked, recorded as the new run's actor. */
    readonly actor: string,
    /** issue 28: the caller's span (a `traceparent`): the new root run nests under it. */
    readonly traceparent?: TraceParent,
  ) {
    super();
  }
}
