/**
 * The a2a-api context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside a2a-api/ import each other directly, never this file.
 */
export { A2aApiModule } from './a2a-api.module';
