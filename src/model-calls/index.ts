/**
 * The model-calls context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside model-calls/ import each other directly, never this file.
 */
export { ModelCallLoaders } from './graphql/model-call-loaders';
export { ProvidesModelCallGate } from './model-call-gate';
export type { ModelCallAdmission, ModelCallGate, ModelCallSpent } from './model-call-gate';
export { ModelCallEvents, readModelCallEvent } from './model-call.events';
export type {
  ModelCallFailed,
  ModelCallFinished,
  ModelCallInterrupted,
  ModelCallLineage,
  ModelCallRefused,
  ModelCallReplay,
  ModelCallStarted,
  ModelCost,
  ModelUsage,
  ReplayDivergence,
} from './model-call.events';
export { ModelCallsReadModel } from './model-calls-read-model';
export type { ModelCallSpendView } from './model-calls-read-model';
export { ModelCallsModule } from './model-calls.module';
export { ModelRoute } from './model-route';
export type { EndedModelCall } from './model-call-recording';
export { ProviderTraffic } from './provider-traffic';
export type { ProviderTrafficState } from './provider-traffic';
