import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { LiveSessionLookup } from '../../../sessions';
import { assertOwner, callerActor, toSummary } from '../../run-caller';
import { holdRunSession } from '../../run-holder';
import { RunRepository } from '../../run-repository';
import { RunStopper } from '../../run-stopper';
import { StopRun, type RunStopped } from './stop-run.command';

@CommandHandler(StopRun)
export class StopRunHandler implements ICommandHandler<StopRun, RunStopped> {
  constructor(
    private readonly repository: RunRepository,
    private readonly stopper: RunStopper,
    private readonly liveSessions: LiveSessionLookup,
  ) {}

  async execute({ runId, caller, reason }: StopRun): Promise<RunStopped> {
    const run = await this.repository.get(runId);
    assertOwner(run, caller);
    // Its executor and CLI session are where it is held: stopped there.
    if (run.status === 'running') await holdRunSession(this.liveSessions, run);
    const actor = callerActor(caller);
    const stopped = await this.stopper.stopTree(runId, { actor, reason: reason ?? `stopped by ${actor}` });
    return { ...toSummary(await this.repository.get(runId)), stopped_runs: stopped };
  }
}
