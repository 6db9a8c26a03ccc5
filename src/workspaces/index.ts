/**
 * The workspaces context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside workspaces/ import each other directly, never this file.
 */
export { NoWorkspaceError, WorkspaceRefusedError, WorkspacesOffError } from './workspace.errors';
export { WorkspaceEvents, readWorkspaceEvent } from './workspace.events';
export type { FileChange, WorkspaceEvent, WorkspaceMergedData, WorkspaceOpenedData } from './workspace.events';
export { Workspaces } from './workspaces';
export type { WorkspaceRequest, WorkspacesUsage } from './workspaces';
export { WorkspacesModule } from './workspaces.module';
export { ProvidesStepAttribution } from './step-attribution';
export type { StepApproval, StepAttributionSource, StepFacts, StepReference } from './step-attribution';
