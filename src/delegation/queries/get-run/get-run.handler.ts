import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { SWITCHBOARD_CONFIG } from '../../../config/config.module';
import type { SwitchboardConfig } from '../../../config/switchboard-config';
import { ModelCallsReadModel } from '../../../model-calls/model-calls-read-model';
import { GetSubtreeUsage } from '../../../run-lineage/queries/get-subtree-usage/get-subtree-usage.query';
import { RunsReadModel } from '../../../run-lineage/runs-read-model';
import { budgetUseOf } from '../../budget-guard';
import { UnknownRunError } from '../../run.errors';
import { runCostOf, type RunReplayView, toRunView } from '../../run-view';
import { RunRepository } from '../../run-repository';
import { GetRun, type SingleRunView } from './get-run.query';

/** One run with its own usage and cost, its subtree's sums and cost, and its budget's use. */
@QueryHandler(GetRun)
export class GetRunHandler implements IQueryHandler<GetRun, SingleRunView> {
  constructor(
    private readonly runs: RunsReadModel,
    private readonly calls: ModelCallsReadModel,
    private readonly queryBus: QueryBus,
    private readonly repository: RunRepository,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
  ) {}

  async execute({ runId }: GetRun): Promise<SingleRunView> {
    const row = await this.runs.find(runId);
    if (!row) throw new UnknownRunError(runId);
    const now = Date.now();
    const [[own, subtreeCalls], subtree, [sums], replay, replays] = await Promise.all([
      this.calls.spendOf([{ runId }, { runPath: row.path }]),
      this.runs.subtreeSpend(row.path, now),
      this.queryBus.execute(new GetSubtreeUsage([row.path])),
      row.replayMode ? this.replayOf(runId, row.rootRunId) : undefined,
      this.runs.replaysOf(runId),
    ]);
    const { prices } = this.config.modelCalls;
    const view = toRunView(row, now, row.budget ? budgetUseOf(subtree, subtreeCalls) : undefined);
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

  /** issue 26: how the run plays its original back, and the replay tree's first divergence (read from its root's subtree). */
  private async replayOf(runId: string, rootRunId: string): Promise<RunReplayView | undefined> {
    const state = await this.repository.load(runId);
    const replay = state?.started.replay;
    if (!replay) return undefined;
    const root = rootRunId === runId ? state.started.path : (await this.runs.find(rootRunId))?.path;
    return {
      mode: replay.mode,
      on_divergence: replay.onDivergence,
      allow_side_effects: replay.allowSideEffects,
      ...(replay.message ? { message: replay.message } : {}),
      ...(replay.agentOverrides ? { agent_overrides: replay.agentOverrides } : {}),
      requested_by: replay.requestedBy,
      divergence: root ? ((await this.calls.firstDivergenceOf(root)) ?? null) : null,
    };
  }
}
