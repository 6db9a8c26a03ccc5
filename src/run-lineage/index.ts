/**
 * The run-lineage context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside run-lineage/ import each other directly, never this file.
 */
export { RunLoaders } from './graphql/run-loaders';
export { ForkedFrom, RemoteRunModel, Run, RunBudgetModel, RunConnection, RunFilterInput, RunReplayInfo, RunUsageModel, Usage } from './graphql/run.model';
export { LineageLookup } from './lineage-lookup';
export type { Lineage } from './lineage-lookup';
export { GetRunSubtrees } from './queries/get-run-subtrees/get-run-subtrees.query';
export { GetRunsById } from './queries/get-runs-by-id/get-runs-by-id.query';
export { GetSubtreeUsage } from './queries/get-subtree-usage/get-subtree-usage.query';
export { ListRuns } from './queries/list-runs/list-runs.query';
export { decodeRunCursor, encodeRunCursor } from './queries/list-runs/run-cursor';
export { ancestorIdsOf, ownUsage } from './run-lineage';
export type { RunRow, RunUsage } from './run-lineage';
export { RunLineageModule } from './run-lineage.module';
export { RunsReadModel } from './runs-read-model';
export type { SubtreeSpend } from './runs-read-model';
