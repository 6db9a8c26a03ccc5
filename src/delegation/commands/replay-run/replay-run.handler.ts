import { Logger } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ReplayOrigin, samePolicy } from '../../replay-origin';
import { StartRun } from '../start-run/start-run.command';
import { ReplayRun, type ReplayStarted } from './replay-run.command';

/**
 * A replay is a new root run owned by the API thread: the original's agent, prompt and policy, no budget
 * (it spends nothing while it plays back), its session answered from the original's record.
 */
@CommandHandler(ReplayRun)
export class ReplayRunHandler implements ICommandHandler<ReplayRun, ReplayStarted> {
  private readonly logger = new Logger(ReplayRunHandler.name);

  constructor(
    private readonly origin: ReplayOrigin,
    private readonly commandBus: CommandBus,
  ) {}

  async execute({ runId, input, actor }: ReplayRun): Promise<ReplayStarted> {
    const original = await this.origin.original(runId);
    const { agentId, prompt } = original.started;
    const summary = await this.commandBus.execute(
      new StartRun(
        {
          agentId,
          prompt,
          background: input.background,
          policy: samePolicy(original),
          replay: { of: runId, mode: 'replay', onDivergence: input.onDivergence, allowSideEffects: input.allowSideEffects, requestedBy: actor },
        },
        { kind: 'api', actor },
      ),
    );
    this.logger.log({ runId: summary.run_id, replayOf: runId, onDivergence: input.onDivergence, actor }, 'replay started');
    return { ...summary, replay_of: runId };
  }
}
