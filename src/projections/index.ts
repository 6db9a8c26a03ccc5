/**
 * The projections context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside projections/ import each other directly, never this file.
 */
export { AsyncProjectionRunner } from './async-projection-runner';
export type { AsyncProjectionStatus } from './async-projection-runner';
export { InlineProjections } from './inline-projections';
export { PerEventProjection, READ_MODEL_PROJECTION, ReadModelProjection, one, onePrepared, perEventProjection, run, runPrepared } from './projection';
export type { BatchInvariant, PostgresSetBasedForm, Projection, ProjectionWork } from './projection';
export { ProjectionRegistry } from './projection-registry';
export { ProjectionsModule } from './projections.module';
export { rebuildReadModels } from './rebuild-pg-read-models';
export { RebuildProjection } from './rebuild-projection/rebuild-projection.command';
export type { RebuildProgress } from './rebuild-projection/rebuild-projection.command';
