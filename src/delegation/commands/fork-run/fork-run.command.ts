import { Command } from '@nestjs/cqrs';
import type { TraceParent } from '../../../common';
import type { RunSummary } from '../../run-caller';

export interface ForkRunInput {
  /** A finished model call of the run's subtree: the calls before it are answered from the record, it and every later call go live. */
  fromModelCall: string;
  /** Appended as a user message to the request at the fork point. */
  message?: string;
  /** Per agent name: a prompt or model replacing that agent's from the fork point on. */
  agentOverrides?: Record<string, { prompt?: string; model?: string }>;
  background: boolean;
}

/** The new run's summary and where it forked from. */
export type ForkStarted = RunSummary & { forked_from: { run_id: string; model_call_id: string } };

/** issue 26: a new root run that replays the original up to one of its model calls and goes live from there. */
export class ForkRun extends Command<ForkStarted> {
  constructor(
    readonly runId: string,
    readonly input: ForkRunInput,
    readonly actor: string,
    /** issue 28: the caller's span (a `traceparent`): the new root run nests under it. */
    readonly traceparent?: TraceParent,
  ) {
    super();
  }
}
