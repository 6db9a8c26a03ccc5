/**
 * The instances context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside instances/ import each other directly, never this file.
 */
export { InstanceLease } from './instance-lease';
export type { LostLease } from './instance-lease';
export { OwnedByOtherInstanceError } from './instance.errors';
export { InstancesModule } from './instances.module';
export { LeaseMonitor } from './lease-monitor';
export type { TakeoverParticipation } from './lease-monitor';
export { holderOf, launchSettled, takeoverReason } from './lease-rules';
export type { Holder, Lease } from './lease-rules';
