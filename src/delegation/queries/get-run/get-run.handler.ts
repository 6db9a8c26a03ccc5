import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../../config';
import { ModelCallsReadModel } from '../../../model-calls';
import { GetSubtreeUsage, RunsReadModel } from '../../../run-lineage';
import { PauseHolds } from '../../../pauses';
import { budgetUseOf } from '../../budget-guard';
import { UnknownRunError } from '../../run.errors';
import { runCostOf, toRunView } from '../../run-view';
import { GetRunReplay } from '../get-run-replay/get-run-replay.query';
import { GetRun, type SingleRunView } from './get-run.query';

/** One run with its own usage and cost, its subtree's sums and cost, and its budget's use. */
@QueryHandler(GetRun)
export class GetRunHandler implements IQueryHandler<GetRun, SingleRunView> {
  constructor(
    private readonly runs: RunsReadModel,
    private readonly calls: ModelCallsReadModel,
    private readonly queryBus: QueryBus,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly pauses: PauseHolds,
  ) {}

  async execute({ runId }: GetRun): Promise<SingleRunView> {
    const row = await this.runs.find(runId);
    if (!row) throw new UnknownRunError(runId);
    const now = Date.now();
    const [[own, subtreeCalls], subtree, [sums], { replay, replays }, pause] = await Promise.all([
      this.calls.spendOf([{ runId }, { runPath: row.path }]),
      this.runs.subtreeSpend(row.path, now),
      this.queryBus.execute(new GetSubtreeUsage([row.path])),
      this.queryBus.execute(new GetRunReplay(runId)),
      this.pauses.pauseOverRun(runId),
    ]);
    const { prices } = this.config.modelCalls;
    const view = toRunView(row, now, row.budget ? budgetUseOf(subtree, subtreeCalls) : undefined, pause);
    return {
      ...view,
      ...(replay ? { replay } : {}),
      replays: replays.map((r) => ({ run_id: r.runId, mode: r.replayMode ?? 'replay', status: r.status, started_at: r.startedAt })),
      usage: { ...view.usage, ...runCostOf(own, prices) },
      subtree_usage: {
        input_tokens: sums.inputTokens,
        output_tokens: sums.outputTokens,
        total_tokens: sums.inputTokens + sums.outputTokens,
        tool_calls: sums.toolCalls,
        // A running run counts its time so far.
        duration_ms: subtree.durationMs,
        ...runCostOf(subtreeCalls, prices),
      },
    };
  }
}
