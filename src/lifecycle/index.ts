/**
 * The lifecycle context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside lifecycle/ import each other directly, never this file.
 */
export { LifecycleModule } from './lifecycle.module';
export { ServiceStopping } from './service-stopping';
