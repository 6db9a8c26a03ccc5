// The health feature's public face: the health page; what others use: a provider's problem as a chat shows it.
// Other features and app/ import only this file (web/src/architecture.spec.ts); every other file here is the feature's own.

export { HealthPage } from './HealthPage';
export { ProviderProblem } from './ProviderProblem';
