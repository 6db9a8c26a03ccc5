// The model-calls feature's public face: no page of its own: the model calls of a session or a run, their cards and figures, for the chat and the run page.
// Other features and app/ import only this file (web/src/architecture.spec.ts); every other file here is the feature's own.

export { ModelCallCard, ModelCallList, ModelRouteNote, useModelCallsRecorded } from './ModelCalls';
export { spendCell, spendCostText, spendText } from './model-call-figures';
export { type ModelCallRow, type RunSpend, useRunModelCalls, useRunTreeSpend, useSessionModelCalls } from './use-model-calls';
