import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SteerSession } from '../../../sessions';
import { RunRepository } from '../../run-repository';
import { RunStateError } from '../../run.errors';
import { type RunSteered, SteerRun } from './steer-run.command';

/**
 * A run is steered through its thread (`sub-agent-<runId>`): the session decides (only a running turn
 * takes it) and records `session.steered` with the run's id, so the run's timeline shows it.
 */
@CommandHandler(SteerRun)
export class SteerRunHandler implements ICommandHandler<SteerRun, RunSteered> {
  constructor(
    private readonly repository: RunRepository,
    private readonly commandBus: CommandBus,
  ) {}

  async execute({ runId, message, actor }: SteerRun): Promise<RunSteered> {
    const run = await this.repository.get(runId);
    if (run.status !== 'running') {
      throw new RunStateError(`Run ${runId} is ${run.status}; only a running run can be steered`, { runId, status: run.status });
    }
    const steered = await this.commandBus.execute(new SteerSession(run.started.threadId, message, actor, { runId }));
    return { ...steered, runId };
  }
}
