/**
 * The traces context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside traces/ import each other directly, never this file.
 */
export { TraceSpansProjection } from './projections/trace-spans.projection';
export { TRACES_OFF, TraceExport } from './trace-export';
export { TracesModule } from './traces.module';
