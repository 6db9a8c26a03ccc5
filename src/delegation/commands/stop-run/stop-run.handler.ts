import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { assertOwner, callerActor, toSummary } from '../../run-caller';
import { RunRepository } from '../../run-repository';
import { RunStopper } from '../../run-stopper';
import { StopRun, type RunStopped } from './stop-run.command';

@CommandHandler(StopRun)
export class StopRunHandler implements ICommandHandler<StopRun, RunStopped> {
  constructor(
    private readonly repository: RunRepository,
    private readonly stopper: RunStopper,
  ) {}

  async execute({ runId, caller, reason }: StopRun): Promise<RunStopped> {
    assertOwner(await this.repository.get(runId), caller);
    const actor = callerActor(caller);
    const stopped = await this.stopper.stopTree(runId, { actor, reason: reason ?? `stopped by ${actor}` });
    return { ...toSummary(await this.repository.get(runId)), stopped_runs: stopped };
  }
}
