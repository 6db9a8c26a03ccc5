import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ReplayOrigin } from '../../replay-origin';
import { ReplayRun, type ReplayStarted } from './replay-run.command';

/** A replay plays the original back from its record and stops (or goes live) at the first difference. */
@CommandHandler(ReplayRun)
export class ReplayRunHandler implements ICommandHandler<ReplayRun, ReplayStarted> {
  private readonly logger = new Logger(ReplayRunHandler.name);

  constructor(private readonly origin: ReplayOrigin) {}

  async execute({ runId, input, actor, traceparent }: ReplayRun): Promise<ReplayStarted> {
    const original = await this.origin.original(runId);
    const summary = await this.origin.start(
      original,
      { of: runId, mode: 'replay', onDivergence: input.onDivergence, allowSideEffects: input.allowSideEffects, requestedBy: actor },
      input.background,
      actor,
      traceparent,
    );
    this.logger.log({ runId: summary.run_id, replayOf: runId, onDivergence: input.onDivergence, actor }, 'replay started');
    return { ...summary, replay_of: runId };
  }
}
