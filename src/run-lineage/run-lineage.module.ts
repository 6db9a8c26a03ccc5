import { Module } from '@nestjs/common';
import { GetRunSubtreesHandler } from './queries/get-run-subtrees/get-run-subtrees.handler';
import { GetRunsByIdHandler } from './queries/get-runs-by-id/get-runs-by-id.handler';
import { GetSubtreeSpendHandler } from './queries/get-subtree-spend/get-subtree-spend.handler';
import { GetSubtreeUsageHandler } from './queries/get-subtree-usage/get-subtree-usage.handler';
import { ListRunChildrenHandler } from './queries/list-run-children/list-run-children.handler';
import { ListRunsHandler } from './queries/list-runs/list-runs.handler';
import { LineageLookup } from './lineage-lookup';
import { RunsReadModel } from './runs-read-model';

/**
 * Read side of run lineage over the `runs` read model (filled by the delegation engine's projection):
 * lists, lookups by id, children, subtrees and their usage through the materialized path index. Every
 * query takes a batch, so GraphQL loaders stay O(1) statements. The owner of `runs`: every other context
 * reads it through the exported `RunsReadModel` (the delegation engine, metrics) or `LineageLookup`
 * (approvals, hooks); nothing here imports delegation, tool-dispatch or sessions.
 */
@Module({
  providers: [
    RunsReadModel,
    LineageLookup,
    ListRunsHandler,
    GetRunsByIdHandler,
    ListRunChildrenHandler,
    GetRunSubtreesHandler,
    GetSubtreeUsageHandler,
    GetSubtreeSpendHandler,
  ],
  exports: [RunsReadModel, LineageLookup],
})
export class RunLineageModule {}
