/**
 * The health context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside health/ import each other directly, never this file.
 */
export { HealthModule } from './health.module';
