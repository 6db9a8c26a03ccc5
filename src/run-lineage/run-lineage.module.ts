import { Module } from '@nestjs/common';
import { GetRunSubtreesHandler } from './queries/get-run-subtrees/get-run-subtrees.handler';
import { GetRunsByIdHandler } from './queries/get-runs-by-id/get-runs-by-id.handler';
import { GetSubtreeSpendHandler } from './queries/get-subtree-spend/get-subtree-spend.handler';
import { GetSubtreeUsageHandler } from './queries/get-subtree-usage/get-subtree-usage.handler';
import { ListRunChildrenHandler } from './queries/list-run-children/list-run-children.handler';
import { ListRunsHandler } from './queries/list-runs/list-runs.handler';
import { ListThreadRequestsHandler } from './queries/list-thread-requests/list-thread-requests.handler';
import { ListThreadSubagentsHandler } from './queries/list-thread-subagents/list-thread-subagents.handler';
import { RunsReadModel } from './runs-read-model';

/**
 * Read side of run lineage over the `runs` read model (filled by the delegation engine): lists, lookups
 * by id, children, subtrees and their usage through the materialized path index, and each run thread's
 * sub-agent launches and routed requests. Every query takes a batch, so GraphQL loaders stay O(1) statements.
 * The only reader of `runs`: the delegation engine reads it through the exported `RunsReadModel`, and
 * nothing here imports delegation.
 */
@Module({
  providers: [
    RunsReadModel,
    ListRunsHandler,
    GetRunsByIdHandler,
    ListRunChildrenHandler,
    GetRunSubtreesHandler,
    GetSubtreeUsageHandler,
    GetSubtreeSpendHandler,
    ListThreadSubagentsHandler,
    ListThreadRequestsHandler,
  ],
  exports: [RunsReadModel],
})
export class RunLineageModule {}
