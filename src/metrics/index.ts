/**
 * The metrics context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside metrics/ import each other directly, never this file.
 */
export { HttpMetrics } from './http-metrics';
export { MetricsModule } from './metrics.module';
