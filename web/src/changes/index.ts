// The changes feature's public face (issue 42): no page of its own: what a session's or a run's git
// worktree changed (files, diff, merges, checkpoints), for the chat and the run page.
// Other features and app/ import only this file (web/src/architecture.spec.ts); every other file here is the feature's own.

export { RunChanges, SessionChanges } from './Changes';
export type { StepLinks } from './ChangesView';
