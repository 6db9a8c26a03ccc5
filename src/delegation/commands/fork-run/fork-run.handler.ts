import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ReplayOrigin } from '../../replay-origin';
import { ForkRun, type ForkStarted } from './fork-run.command';

/**
 * A fork is a replay that goes live at a chosen call: before it, nothing reaches the model; from it on
 * (every agent's calls that started at or after it), the model answers, with the message appended at
 * the fork point and an agent's prompt or model overridden. Once live it never compares again, so it
 * goes on live at a difference (`onDivergence: live`).
 */
@CommandHandler(ForkRun)
export class ForkRunHandler implements ICommandHandler<ForkRun, ForkStarted> {
  private readonly logger = new Logger(ForkRunHandler.name);

  constructor(private readonly origin: ReplayOrigin) {}

  async execute({ runId, input, actor, traceparent }: ForkRun): Promise<ForkStarted> {
    const original = await this.origin.original(runId);
    const point = await this.origin.forkPoint(original, input.fromModelCall);
    const summary = await this.origin.start(
      original,
      {
        of: runId,
        mode: 'fork',
        onDivergence: 'live',
        allowSideEffects: false,
        fromModelCall: point.callId,
        fromStartedAt: point.startedAt,
        ...(input.message ? { message: input.message } : {}),
        ...(input.agentOverrides ? { agentOverrides: input.agentOverrides } : {}),
        requestedBy: actor,
      },
      input.background,
      actor,
      traceparent,
    );
    this.logger.log({ runId: summary.run_id, forkOf: runId, fromModelCall: point.callId, actor }, 'fork started');
    return { ...summary, forked_from: { run_id: runId, model_call_id: point.callId } };
  }
}
