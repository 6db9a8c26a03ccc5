/**
 * The outbound context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside outbound/ import each other directly, never this file.
 */
export { OUTBOUND_REFUSED, OutboundUrlGuard } from './outbound-url-guard';
export type { HostResolver, OutboundVerdict } from './outbound-url-guard';
export { OutboundModule } from './outbound.module';
export { guardedFetch, OutboundRefusedError } from './guarded-fetch';
export type { GuardedFetchOptions } from './guarded-fetch';
