import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ModelCallsReadModel } from '../../../model-calls';
import { RunsReadModel } from '../../../run-lineage';
import { UnknownRunError } from '../../run.errors';
import { RunRepository } from '../../run-repository';
import type { RunReplayView } from '../../run-view';
import { GetRunReplay, type RunReplayLinks } from './get-run-replay.query';

/**
 * issue 26: a run's replay settings (off its `run.started`), the replay tree's first divergence (the
 * ledger's, over the tree's root path) and the runs replaying or forking it. For the single run's views.
 */
@QueryHandler(GetRunReplay)
export class GetRunReplayHandler implements IQueryHandler<GetRunReplay, RunReplayLinks> {
  constructor(
    private readonly runs: RunsReadModel,
    private readonly repository: RunRepository,
    private readonly calls: ModelCallsReadModel,
  ) {}

  async execute({ runId }: GetRunReplay): Promise<RunReplayLinks> {
    const row = await this.runs.find(runId);
    if (!row) throw new UnknownRunError(runId);
    const [replay, replays] = await Promise.all([row.replayMode ? this.replayOf(runId, row.rootRunId) : null, this.runs.replaysOf(runId)]);
    return { replay, replays };
  }

  private async replayOf(runId: string, rootRunId: string): Promise<RunReplayView | null> {
    const state = await this.repository.load(runId);
    const replay = state?.started.replay;
    if (!replay) return null;
    const rootPath = rootRunId === runId ? state.started.path : (await this.runs.find(rootRunId))?.path;
    return {
      mode: replay.mode,
      on_divergence: replay.onDivergence,
      allow_side_effects: replay.allowSideEffects,
      ...(replay.message ? { message: replay.message } : {}),
      ...(replay.agentOverrides ? { agent_overrides: replay.agentOverrides } : {}),
      requested_by: replay.requestedBy,
      divergence: rootPath ? ((await this.calls.firstDivergenceOf(rootPath)) ?? null) : null,
    };
  }
}
